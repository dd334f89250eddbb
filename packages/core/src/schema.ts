import { z } from 'zod';
import type { Tool } from './tool.js';

const cache = new WeakMap<Tool, Record<string, unknown>>();

/**
 * JSON Schema (draft 2020-12 shape, without `$schema`) of a tool's request, as a model provider expects it.
 * A tool that carries its own `jsonSchema` (e.g. proxied from an MCP server) is advertised with that schema verbatim.
 */
export function toolJsonSchema(tool: Tool): Record<string, unknown> {
  let schema = cache.get(tool);
  if (!schema) {
    const derived = () => z.toJSONSchema(tool.request, { io: 'input', unrepresentable: 'any' });
    const raw = (tool.jsonSchema ?? derived()) as Record<string, unknown>;
    const { $schema: _ignored, ...rest } = raw;
    schema = Object.freeze(tool.jsonSchema ? rest : withoutSafeIntegerBounds(rest)) as Record<string, unknown>;
    cache.set(tool, schema);
  }
  return schema;
}

/**
 * Drops the `minimum`/`maximum` zod writes for every `.int()` (±2^53-1): they say nothing a model needs (every
 * JSON integer it would send is inside them), cost ~20 tokens a field in every request, and validation keeps them.
 */
function withoutSafeIntegerBounds(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    out[key] = strip(value);
  }
  return out;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value === 'object' && value !== null) return withoutSafeIntegerBounds(value as Record<string, unknown>);
  return value;
}

/** The OpenAI chat-completions `tools[]` entry for a tool. */
export function toOpenAITool(tool: Tool): {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
} {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: toolJsonSchema(tool) },
  };
}

/** The Anthropic Messages API `tools[]` entry for a tool. */
export function toAnthropicTool(tool: Tool): {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
} {
  return { name: tool.name, description: tool.description, input_schema: toolJsonSchema(tool) };
}

/** The MCP `tools/list` entry for a tool. */
export function toMcpTool(tool: Tool): {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
} {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: toolJsonSchema(tool),
    ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
  };
}
