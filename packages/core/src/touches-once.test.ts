import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { executeTool } from './call.js';
import { defineTool, type PreHook, type ToolContext } from './tool.js';
import type { Touches } from './touches.js';

const Request = z.object({ path: z.string() }).strict();

/** A tool whose declaration counts how often it is asked, and whose handler keeps what it was told. */
function counted() {
  const seen = { asked: 0, handler: [] as (Touches | undefined)[] };
  const tool = defineTool({
    name: 'counted',
    description: 'Counts how often its touches declaration is asked.',
    request: Request,
    touches: (request) => {
      seen.asked++;
      return { read: [request.path] };
    },
    handler: async (_request, context: ToolContext) => {
      seen.handler.push(context.touches);
      return { success: true };
    },
  });
  return { tool, seen };
}

describe('touches, worked out once per call by the executor', () => {
  it('hands the same declaration to every pre hook, asking the tool once', async () => {
    const { tool, seen } = counted();
    const given: (Touches | undefined)[] = [];
    const hook: PreHook = ({ touches }) => {
      given.push(touches);
    };
    await executeTool(tool, { path: 'a.txt' }, { hooks: [{ pre: [hook, hook] }, { pre: [hook] }] });
    expect(seen.asked).toBe(1);
    expect(given).toEqual([{ read: ['a.txt'] }, { read: ['a.txt'] }, { read: ['a.txt'] }]);
    expect(given[0]).toBe(given[2]);
    // A hooked call: the handler is not told (a hook could have changed the arguments in place).
    expect(seen.handler).toEqual([undefined]);
  });

  it('works it out again after a hook rewrites the arguments', async () => {
    const { tool, seen } = counted();
    const given: (Touches | undefined)[] = [];
    const rewrite: PreHook = () => ({ args: { path: 'b.txt' } });
    const look: PreHook = ({ touches }) => {
      given.push(touches);
    };
    await executeTool(tool, { path: 'a.txt' }, { hooks: [{ pre: [rewrite, look] }] });
    expect(seen.asked).toBe(2);
    expect(given).toEqual([{ read: ['b.txt'] }]);
  });

  it('tells an unhooked handler, and leaves it out when the declaration throws', async () => {
    const { tool, seen } = counted();
    await executeTool(tool, { path: 'a.txt' });
    expect(seen.handler).toEqual([{ read: ['a.txt'] }]);
    const throwing = defineTool({
      name: 'throwing',
      description: 'Its touches declaration throws.',
      request: Request,
      touches: () => {
        throw new Error('no');
      },
      handler: async (_request, context) => ({ success: true, told: context.touches !== undefined }),
    });
    expect((await executeTool(throwing, { path: 'a.txt' })).output).toEqual({ success: true, told: false });
  });
});
