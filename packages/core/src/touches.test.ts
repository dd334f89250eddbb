import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from './bough-error.js';
import { defineTool, withHooks } from './tool.js';
import { NO_TOUCHES, touchedPaths, touchesNothing } from './touches.js';

const request = z.object({ from: z.string(), to: z.string() }).strict();
const spec = {
  name: 'mover',
  description: 'Moves one file to another name inside the workspace.',
  request,
  handler: async () => ({ success: true }),
  touches: (r: z.infer<typeof request>) => ({ move: [{ from: r.from, to: r.to }] }),
};

describe('touches', () => {
  it('travels with the tool through defineTool and withHooks', () => {
    const tool = defineTool(spec);
    expect(tool.touches?.({ from: 'a', to: 'b' })).toEqual({ move: [{ from: 'a', to: 'b' }] });
    expect(withHooks(tool, { pre: [() => undefined] }).touches).toBe(tool.touches);
    expect(defineTool({ ...spec, touches: undefined }).touches).toBeUndefined();
  });

  it('must be a function', () => {
    expect(() => defineTool({ ...spec, touches: { read: ['x'] } as never })).toThrow(ConfigurationError);
  });

  it('lists every named path once; the workspace marker adds none', () => {
    expect(
      touchedPaths({
        read: ['a', 'b'],
        write: ['b'],
        create: ['c'],
        delete: ['d'],
        move: [{ from: 'e', to: 'f' }],
        cwd: 'g',
        workspace: true,
      }),
    ).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(touchedPaths(touchesNothing({}))).toEqual([]);
    expect(Object.isFrozen(NO_TOUCHES)).toBe(true);
  });
});
