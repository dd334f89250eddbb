import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toAnthropicTool, toMcpTool, toOpenAITool, toolJsonSchema } from './schema.js';
import { defineTool } from './tool.js';

const tool = defineTool({
  name: 'lookup',
  description: 'Looks a key up; used to check schema exports.',
  request: z
    .object({
      key: z.string().describe('The key to find.'),
      limit: z.number().int().min(1).max(10).default(5).describe('How many rows.'),
    })
    .strict(),
  handler: async () => null,
  annotations: { readOnlyHint: true },
});

describe('schema exports', () => {
  it('produces a JSON Schema of the request input (defaults optional, descriptions kept)', () => {
    const schema = toolJsonSchema(tool);
    expect(schema).toMatchObject({
      type: 'object',
      properties: { key: { type: 'string', description: 'The key to find.' }, limit: { default: 5, maximum: 10 } },
      required: ['key'],
      additionalProperties: false,
    });
    expect(schema.$schema).toBeUndefined();
    expect(toolJsonSchema(tool)).toBe(schema);
  });

  it('leaves out the safe-integer bounds zod writes for every int, keeping the bounds a schema states', () => {
    const counted = defineTool({
      name: 'counted',
      description: 'Takes an offset; used to check integer bounds.',
      request: z.object({ offset: z.number().int(), rows: z.number().int().min(1).max(10) }),
      handler: async () => null,
    });
    const properties = toolJsonSchema(counted).properties as Record<string, Record<string, unknown>>;
    expect(properties.offset).toEqual({ type: 'integer' });
    expect(properties.rows).toEqual({ type: 'integer', minimum: 1, maximum: 10 });
  });

  it('maps to OpenAI, Anthropic and MCP shapes', () => {
    const schema = toolJsonSchema(tool);
    expect(toOpenAITool(tool)).toEqual({
      type: 'function',
      function: { name: 'lookup', description: tool.description, parameters: schema },
    });
    expect(toAnthropicTool(tool)).toEqual({ name: 'lookup', description: tool.description, input_schema: schema });
    expect(toMcpTool(tool)).toEqual({
      name: 'lookup',
      description: tool.description,
      inputSchema: schema,
      annotations: { readOnlyHint: true },
    });
  });
});
