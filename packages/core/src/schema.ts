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
    schema = Object.freeze(rest) as Record<string, unknown>;
    cache.set(tool, schema);
  }
  return schema;
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
