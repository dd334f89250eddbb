import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { executeTool } from './call.js';
import { takeParsed } from './parsed.js';
import { defineTool } from './tool.js';

const Request = z.object({ n: z.number().int() }).strict();

/** A handler that validates its input like a standalone handle… function, and reports whether it parsed. */
function probe(seen: { taken: boolean[] }) {
  return defineTool({
    name: 'probe',
    description: 'Records whether its request arrived already parsed by the executor.',
    request: Request,
    handler: async (request) => {
      const taken = takeParsed(request, Request);
      seen.taken.push(taken);
      const parsed = taken ? { success: true as const, data: request } : Request.safeParse(request);
      return parsed.success
        ? { n: parsed.data.n }
        : { success: false, error: 'invalid', error_code: 'invalid_request' };
    },
  });
}

describe('takeParsed', () => {
  it('is true once for the object the executor parsed with that schema, and false afterwards', async () => {
    const seen = { taken: [] as boolean[] };
    const call = await executeTool(probe(seen), { n: 1 });
    expect(call.output).toEqual({ n: 1 });
    expect(seen.taken).toEqual([true]);
    expect(takeParsed(call.args, Request)).toBe(false);
  });

  it('is false for objects the executor did not parse, or parsed with another schema', async () => {
    expect(takeParsed({ n: 1 }, Request)).toBe(false);
    expect(takeParsed(undefined, Request)).toBe(false);
    const other = z.object({ n: z.number() });
    // The handler asks about another schema: still false.
    const asking = defineTool({
      name: 'asking',
      description: 'Asks whether its request was parsed with a schema other than its own.',
      request: Request,
      handler: async (request) => ({ taken: takeParsed(request, other) }),
    });
    expect((await executeTool(asking, { n: 1 })).output).toEqual({ taken: false });
  });

  it('is false once a pre hook has seen the arguments, so an in-place change is parsed again', async () => {
    const seen = { taken: [] as boolean[] };
    const hooks = {
      pre: [
        ({ args }: { args: unknown }) => {
          // A misbehaving hook that changes the arguments in place instead of returning new ones.
          (args as { n: unknown }).n = 'not a number';
          return undefined;
        },
      ],
    };
    const call = await executeTool(probe(seen), { n: 1 }, { hooks: [hooks] });
    expect(seen.taken).toEqual([false]);
    expect(call.output).toMatchObject({ success: false, error_code: 'invalid_request' });
  });

  it('is false for a handler called directly, even with the same arguments object twice', async () => {
    const seen = { taken: [] as boolean[] };
    const tool = probe(seen);
    const args = { n: 2 };
    await tool.handler(args, { signal: new AbortController().signal, callId: 'direct' });
    await tool.handler(args, { signal: new AbortController().signal, callId: 'direct' });
    expect(seen.taken).toEqual([false, false]);
  });
});
