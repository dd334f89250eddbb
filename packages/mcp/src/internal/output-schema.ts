import type { Tool } from '@bough/core';
import { z } from 'zod';

type Schema = Record<string, unknown>;

/** The failure every tool call can end in (from the tool itself or from the executor around it). */
const FAILURE_SCHEMA: Schema = Object.freeze({
  type: 'object',
  properties: {
    success: { type: 'boolean', const: false },
    error: { type: 'string' },
    error_code: { type: 'string' },
  },
  required: ['success', 'error', 'error_code'],
});

/** The key a non-object output is carried under in `structuredContent`. */
export const WRAPPED_OUTPUT_KEY = 'output';

const cache = new WeakMap<Tool, Schema>();

/**
 * Drops `additionalProperties: false` everywhere: the declared fields stay exact, but a host, a hook or a later
 * version may add a field without making every result fail the client's validation.
 */
function open(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(open);
  if (typeof node !== 'object' || node === null) return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    if (key === '$schema') continue;
    out[key] = open(value);
  }
  return out;
}

/**
 * The MCP `outputSchema` of a tool: its response schema (zod, as JSON Schema) or any object when it has none, either
 * way together with the shared failure shape, under a root `type: "object"` as MCP requires.
 */
export function outputSchemaOf(tool: Tool): Schema {
  let schema = cache.get(tool);
  if (schema) return schema;
  let response: Schema | undefined;
  if (tool.response) {
    try {
      response = open(z.toJSONSchema(tool.response, { io: 'output', unrepresentable: 'any' })) as Schema;
    } catch {
      response = undefined;
    }
  }
  const success: Schema = response ?? {
    type: 'object',
    properties: { [WRAPPED_OUTPUT_KEY]: {} },
  };
  schema = Object.freeze({ type: 'object', anyOf: [success, FAILURE_SCHEMA] });
  cache.set(tool, schema);
  return schema;
}
