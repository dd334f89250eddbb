// The AI SDK recognises its own schema objects by a registered symbol (the same since ai v3), so we can build one
// without importing `ai` at runtime: `ai.jsonSchema(...)` produces exactly that shape. The same object also carries
// the Standard Schema properties (`~standard`, with a JSON Schema converter), which ai 6 and 7 accept as an input schema;
// that is what the declared type describes, because the SDK's symbol key cannot be named without importing `ai`.
const AI_SCHEMA_SYMBOL = Symbol.for('vercel.ai.schema');

/**
 * An input schema in the Standard Schema shape (v1, with the JSON Schema extension) that `ai` 6 and 7 accept for a
 * tool's `inputSchema`. It validates nothing: bough's executor validates, so a bad input becomes a typed
 * `invalid_request` value the model can read instead of an SDK error.
 */
export interface AiSdkInputSchema<REQ = unknown> {
  /** The Standard Schema properties. */
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: { readonly input: unknown; readonly output: REQ } | undefined;
    readonly validate: (value: unknown) => { readonly value: REQ; readonly issues?: undefined };
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/**
 * A schema that advertises `jsonSchema` to the model and accepts any input. At runtime it is both an AI SDK schema
 * object (found first by every ai version since v3) and a Standard Schema.
 */
export function passThroughSchema<REQ>(jsonSchema: Record<string, unknown>): AiSdkInputSchema<REQ> {
  // A fresh copy per conversion: ai edits the schema it is given (it adds `additionalProperties`), and ours is frozen.
  const toJson = () => structuredClone(jsonSchema);
  return {
    [AI_SCHEMA_SYMBOL]: true,
    _type: undefined,
    jsonSchema,
    validate: (value: unknown) => ({ success: true as const, value }),
    '~standard': {
      version: 1,
      vendor: 'bough',
      validate: (value: unknown) => ({ value: value as REQ }),
      jsonSchema: { input: toJson, output: toJson },
    },
  } as AiSdkInputSchema<REQ>;
}
