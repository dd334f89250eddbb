import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { executeTool } from './call.js';
import { ToolRegistry } from './registry.js';
import type { ToolHooks } from './tool.js';
import { defineTool, type ToolContext } from './tool.js';

const add = defineTool({
  name: 'add',
  description: 'Adds two integers; used to exercise the execution pipeline.',
  request: z.object({ a: z.number().int(), b: z.number().int() }).strict(),
  handler: async ({ a, b }) => ({ sum: a + b }),
});

const boom = defineTool({
  name: 'boom',
  description: 'Always throws, to prove a handler bug never escapes the executor.',
  request: z.object({}).strict(),
  handler: async () => {
    throw new Error('kaboom');
  },
});

function slow(onSignal: (signal: AbortSignal) => void) {
  return defineTool({
    name: 'slow',
    description: 'Waits until aborted, recording the signal it was given.',
    request: z.object({}).strict(),
    handler: (_request, context: ToolContext) =>
      new Promise((_resolve, reject) => {
        onSignal(context.signal);
        context.signal.addEventListener('abort', () => reject(new Error('stopped')));
      }),
  });
}

describe('executeTool', () => {
  it('completes with the output, duration and the validated arguments', async () => {
    const call = await executeTool(add, { a: 2, b: 3 });
    expect(call.status).toBe('completed');
    expect(call.output).toEqual({ sum: 5 });
    expect(call.args).toEqual({ a: 2, b: 3 });
    expect(call.durationMs).toBeGreaterThanOrEqual(0);
    expect(call.ok).toBe(true);
  });

  it('turns invalid arguments into a typed failure with zod issues in words', async () => {
    const call = await executeTool(add, { a: 'x', c: 1 });
    expect(call.status).toBe('failed');
    expect(call.error?.code).toBe('invalid_request');
    expect(call.error?.message).toMatch(/a: .*number/i);
    expect(call.error?.message).toMatch(/c/);
    expect(call.output).toMatchObject({ success: false, error_code: 'invalid_request' });
  });

  it('never lets a handler error escape, and error hooks can map it to a result', async () => {
    const failed = await executeTool(boom, {});
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('handler_error');
    expect(failed.error?.message).toContain('kaboom');

    const seen: unknown[] = [];
    const hooks: ToolHooks = {
      error: [
        ({ error }) => {
          seen.push(error);
        },
        () => ({ result: { success: false, error: 'mapped', error_code: 'mapped' } }),
      ],
    };
    const mapped = await executeTool(boom, {}, { hooks: [hooks] });
    expect(mapped.status).toBe('completed');
    expect(mapped.output).toEqual({ success: false, error: 'mapped', error_code: 'mapped' });
    expect(seen).toHaveLength(1);
  });

  it('lets pre hooks rewrite arguments, validating the rewrite again', async () => {
    const rewrite: ToolHooks = { pre: [({ args }) => ({ args: { ...(args as object), b: 10 } })] };
    expect((await executeTool(add, { a: 1, b: 1 }, { hooks: [rewrite] })).output).toEqual({ sum: 11 });

    const broken: ToolHooks = { pre: [() => ({ args: { a: 'nope' } })] };
    const call = await executeTool(add, { a: 1, b: 1 }, { hooks: [broken] });
    expect(call.status).toBe('failed');
    expect(call.error?.code).toBe('denied');
    expect(call.error?.message).toMatch(/invalid request/);
  });

  it('denies with the hook reason, fails closed on hook errors and unknown decisions', async () => {
    let ran = false;
    const guarded = defineTool({
      ...add,
      handler: async () => {
        ran = true;
        return { sum: 0 };
      },
    });
    const deny = await executeTool(
      guarded,
      { a: 1, b: 1 },
      { hooks: [{ pre: [() => ({ decision: 'deny', reason: 'no adding today' })] }] },
    );
    expect(deny.error).toEqual({ code: 'denied', message: 'Call to add denied: no adding today' });
    const thrown = await executeTool(
      guarded,
      { a: 1, b: 1 },
      {
        hooks: [
          {
            pre: [
              () => {
                throw new Error('hook bug');
              },
            ],
          },
        ],
      },
    );
    expect(thrown.error?.message).toMatch(/hook bug.*failing closed/);
    const weird = await executeTool(
      guarded,
      { a: 1, b: 1 },
      { hooks: [{ pre: [() => ({ decision: 'warn' }) as never] }] },
    );
    expect(weird.error?.code).toBe('denied');
    expect(ran).toBe(false);
  });

  it('runs post hooks in order, letting them replace results and ignoring their errors', async () => {
    const hooks: ToolHooks = {
      post: [
        ({ result }) => ({ ...(result as object), doubled: (result as { sum: number }).sum * 2 }),
        () => {
          throw new Error('post bug');
        },
        () => undefined,
      ],
    };
    const call = await executeTool(add, { a: 2, b: 2 }, { hooks: [hooks] });
    expect(call.output).toEqual({ sum: 4, doubled: 8 });
    expect(call.hookErrors).toEqual(['post bug']);
  });

  it('awaits async hooks: a rejected pre hook denies, an async post hook replaces, a rejected one is recorded', async () => {
    const rejected = await executeTool(
      add,
      { a: 1, b: 1 },
      { hooks: [{ pre: [async () => Promise.reject(new Error('async bug'))] }] },
    );
    expect(rejected.error?.code).toBe('denied');
    expect(rejected.error?.message).toMatch(/async bug/);
    const rewritten = await executeTool(
      add,
      { a: 1, b: 1 },
      { hooks: [{ pre: [async () => ({ args: { a: 5, b: 5 } })] }] },
    );
    expect(rewritten.output).toEqual({ sum: 10 });
    const posted = await executeTool(
      add,
      { a: 1, b: 1 },
      {
        hooks: [{ post: [async () => 'replaced', async () => Promise.reject(new Error('late'))] }],
      },
    );
    expect(posted.output).toBe('replaced');
    expect(posted.hookErrors).toEqual(['late']);
  });

  it('runs registry hooks ("*" then by name) before the tool\'s own hooks', async () => {
    const order: string[] = [];
    const tool = defineTool({ ...add, hooks: { pre: [() => void order.push('tool')] } });
    const registry = new ToolRegistry();
    registry.register(tool);
    registry.addHooks('add', { pre: [() => void order.push('name')] });
    registry.addHooks('*', { pre: [() => void order.push('star')] });
    await registry.invoke('add', { a: 1, b: 2 });
    expect(order).toEqual(['star', 'name', 'tool']);
  });

  it('cancels on abort and passes the signal to the handler', async () => {
    let signal: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const controller = new AbortController();
    const pending = executeTool(
      slow((s) => {
        signal = s;
        started();
      }),
      {},
      { signal: controller.signal },
    );
    // Abort once the handler runs (it has its signal), not after a guessed delay.
    await running;
    controller.abort(new Error('user pressed stop'));
    const call = await pending;
    expect(call.status).toBe('cancelled');
    expect(call.error?.code).toBe('aborted');
    expect(call.error?.message).toContain('user pressed stop');
    expect(signal?.aborted).toBe(true);
  });

  it('does not start a call whose signal is already aborted', async () => {
    let started = false;
    const controller = new AbortController();
    controller.abort();
    const call = await executeTool(
      slow(() => (started = true)),
      {},
      { signal: controller.signal },
    );
    expect(call.status).toBe('cancelled');
    expect(started).toBe(false);
  });

  it('times out, aborting the handler signal, even if the handler ignores it', async () => {
    let signal: AbortSignal | undefined;
    const stubborn = defineTool({
      name: 'stubborn',
      description: 'Never settles, to prove timeouts do not depend on handler cooperation.',
      request: z.object({}).strict(),
      handler: (_r, context) => {
        signal = context.signal;
        return new Promise(() => {});
      },
    });
    const call = await executeTool(stubborn, {}, { timeoutMs: 20 });
    expect(call.status).toBe('cancelled');
    expect(call.error?.code).toBe('timed_out');
    expect(signal?.aborted).toBe(true);
  });
});
