import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from './bough-error.js';
import { defineTool } from './tool.js';

// A schema as zod 3 builds it: safeParse and _def, but none of zod 4's `_zod` internals.
const zod3Like = { _def: { typeName: 'ZodObject' }, safeParse: () => ({ success: true, data: {} }) };

describe('schemas from an unsupported zod major', () => {
  it('are refused at setup with the zod version bough needs', () => {
    const define = () =>
      defineTool({
        name: 'old',
        description: 'Uses a zod 3 schema.',
        request: zod3Like as never,
        handler: async () => ({}),
      });
    expect(define).toThrow(ConfigurationError);
    expect(define).toThrow(/not a zod 4 schema \(it looks like a zod 3 schema\).*zod@\^4\.3\.0/);
  });

  it('refuse a zod 3 response schema too, and accept zod 4', () => {
    const request = z.object({}).strict();
    expect(() =>
      defineTool({ name: 'r', description: 'd', request, response: zod3Like as never, handler: async () => ({}) }),
    ).toThrow(/response schema is not a zod 4 schema/);
    expect(defineTool({ name: 'ok', description: 'd', request, handler: async () => ({}) }).name).toBe('ok');
  });
});
