// The AI SDK recognises its own schema objects by a registered symbol (the same since ai v3), so we can build one
// without importing `ai` at runtime. `ai.jsonSchema(...)` produces exactly this shape.
const AI_SCHEMA_SYMBOL = Symbol.for('vercel.ai.schema');

/**
 * An AI SDK schema that advertises `jsonSchema` to the model and accepts any input, leaving validation to bough's
 * executor so a bad input becomes a typed `invalid_request` value the model can read (instead of an SDK error).
 */
export function passThroughSchema(jsonSchema: Record<string, unknown>): unknown {
  return {
    [AI_SCHEMA_SYMBOL]: true,
    _type: undefined,
    jsonSchema,
    validate: (value: unknown) => ({ success: true as const, value }),
  };
}
