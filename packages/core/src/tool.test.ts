import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from './bough-error.js';
import { defineTool, isTool, type Tool, withHooks } from './tool.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes its text back; used to test the tool contract.',
  request: z.object({ text: z.string() }).strict(),
  handler: async ({ text }) => ({ success: true as const, text }),
});

describe('defineTool', () => {
  it('freezes the descriptor and defaults to stateless scope', () => {
    expect(Object.isFrozen(echo)).toBe(true);
    expect(echo.scope).toBe('stateless');
    expect(isTool(echo)).toBe(true);
    expect(() => {
      (echo as { name: string }).name = 'other';
    }).toThrow();
  });

  it.each(['', 'Echo', 'has-dash', 'a'.repeat(65), 'space name'])('rejects the name %j', (name) => {
    expect(() => defineTool({ ...echo, name })).toThrow(ConfigurationError);
  });

  it('requires a description, a handler and a zod schema', () => {
    expect(() => defineTool({ ...echo, description: ' ' })).toThrow(/description/);
    expect(() => defineTool({ ...echo, handler: undefined as never })).toThrow(/handler/);
    expect(() => defineTool({ ...echo, request: {} as never })).toThrow(/zod/);
  });

  it('withHooks returns a new tool and leaves the original untouched', () => {
    const pre = () => undefined;
    const hooked = withHooks(echo, { pre: [pre] });
    expect(hooked).not.toBe(echo);
    expect(hooked.hooks?.pre).toEqual([pre]);
    expect(echo.hooks).toBeUndefined();
    expect(Object.isFrozen(hooked.hooks?.pre)).toBe(true);
  });

  it('infers request and response types from the schema and handler', () => {
    expectTypeOf(echo).toExtend<Tool<{ text: string }, { success: true; text: string }>>();
    expectTypeOf<Parameters<typeof echo.handler>[0]>().toEqualTypeOf<{ text: string }>();
    // The same contract at run time: the schema takes exactly that shape and the handler returns what it types.
    expect(echo.request.safeParse({ text: 'hi' }).success).toBe(true);
    expect(echo.request.safeParse({ text: 1 }).success).toBe(false);
  });
});
