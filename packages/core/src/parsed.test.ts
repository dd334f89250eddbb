import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { executeTool } from './call.js';
import { parseOnce } from './parsed.js';
import { defineTool, type ToolContext } from './tool.js';

const Request = z.object({ n: z.number().int() }).strict();

/** A handler that validates its input like a standalone handle… function, and records what the executor told it. */
function probe(seen: { told: boolean[] }) {
  return defineTool({
    name: 'probe',
    description: 'Records whether its request arrived already parsed by the executor.',
    request: Request,
    handler: async (request, context) => {
      seen.told.push(context.parsedBy === Request);
      const parsed = parseOnce(Request, request, context.parsedBy);
      return parsed.success
        ? { n: parsed.data.n }
        : { success: false, error: 'invalid', error_code: 'invalid_request' };
    },
  });
}

const direct: ToolContext = { signal: new AbortController().signal, callId: 'direct' };

describe('parseOnce and context.parsedBy', () => {
  it('tells the handler which schema parsed the fresh request it hands over', async () => {
    const seen = { told: [] as boolean[] };
    const call = await executeTool(probe(seen), { n: 1 });
    expect(call.output).toEqual({ n: 1 });
    expect(seen.told).toEqual([true]);
  });

  it('uses the request as is only for that very schema; any other parses', () => {
    const other = z.object({ n: z.number() });
    expect(parseOnce(Request, { n: 'x' }, Request).success).toBe(true);
    expect(parseOnce(Request, { n: 'x' }, other).success).toBe(false);
    expect(parseOnce(Request, { n: 'x' }).success).toBe(false);
    expect(parseOnce(Request, { n: 2 })).toMatchObject({ success: true, data: { n: 2 } });
  });

  it('says nothing once a pre hook has seen the arguments, so an in-place change is parsed again', async () => {
    const seen = { told: [] as boolean[] };
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
    expect(seen.told).toEqual([false]);
    expect(call.output).toMatchObject({ success: false, error_code: 'invalid_request' });
  });

  it('says nothing to a handler called directly, which parses its input', async () => {
    const seen = { told: [] as boolean[] };
    const tool = probe(seen);
    expect(await tool.handler({ n: 'x' } as never, direct)).toMatchObject({ success: false });
    expect(seen.told).toEqual([false]);
  });
});
