import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toMcpTool, toolJsonSchema } from './schema.js';
import { defineTool } from './tool.js';

const remoteSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { city: { type: 'string', description: 'Where to look' } },
  required: ['city'],
};

describe('Tool.jsonSchema override', () => {
  it('advertises the carried schema verbatim, minus $schema', () => {
    const tool = defineTool({
      name: 'proxy',
      description: 'A proxied tool.',
      request: z.record(z.string(), z.unknown()),
      jsonSchema: remoteSchema,
      handler: async () => 'ok',
    });
    const { $schema: _drop, ...expected } = remoteSchema;
    expect(toolJsonSchema(tool)).toEqual(expected);
    expect(toMcpTool(tool).inputSchema).toEqual(expected);
    expect(Object.isFrozen(tool.jsonSchema)).toBe(true);
  });

  it('still derives the schema from zod when no override is given', () => {
    const tool = defineTool({
      name: 'plain',
      description: 'A plain tool.',
      request: z.object({ n: z.number() }).strict(),
      handler: async () => 'ok',
    });
    expect(tool.jsonSchema).toBeUndefined();
    expect(toolJsonSchema(tool)).toMatchObject({ type: 'object', required: ['n'] });
  });
});
