import { defineTool, type PreHook } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, toolkitBranch } from '../test/helpers.js';
import { NO_EVIDENCE } from './source-evidence.js';
import type { ToolSource } from './tool-sources.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

/** A stand-in `bash` that echoes its command, or throws when asked to. */
const echo: ToolSource = {
  name: 'bash',
  scope: 'workspace',
  evidence: NO_EVIDENCE,
  make: () =>
    defineTool({
      name: 'bash',
      description: 'Test bash: echoes the command back, throws for the command "throw".',
      request: z.object({ command: z.string() }).strict(),
      handler: async ({ command }) => {
        if (command === 'throw') throw new Error('handler bug');
        return { success: true, stdout: command, return_code: 0 };
      },
    }),
};

function tracer(log: string[], label: string): PreHook {
  return () => {
    log.push(label);
  };
}

describe('hook order', () => {
  it('runs permission, security *, security name, user name, user *, then post name, post *, nudge', async () => {
    const log: string[] = [];
    const branch = toolkitBranch(
      ws.root,
      {
        tools: ['bash'],
        permissions: { allow: { '*': ['*'] } },
        hooks: {
          securityPre: { '*': tracer(log, 'sec*'), bash: tracer(log, 'secBash') },
          pre: { '*': tracer(log, 'pre*'), bash: [tracer(log, 'preBash1'), tracer(log, 'preBash2')] },
          post: {
            '*': ({ result }) => {
              log.push('post*');
              return result;
            },
            bash: () => void log.push('postBash'),
          },
        },
      },
      { sources: [echo] },
    );
    const out = await call(branch, 'bash', { command: 'ls' });
    expect(log).toEqual(['sec*', 'secBash', 'preBash1', 'preBash2', 'pre*', 'postBash', 'post*']);
    expect(out.system_note).toMatch(/^\[context/);
  });

  it('re-runs security on arguments a user hook rewrote, so a rewrite cannot bypass it', async () => {
    const branch = toolkitBranch(
      ws.root,
      {
        tools: ['bash'],
        notify: false,
        permissions: 'safe',
        onAsk: () => true,
        hooks: { pre: { bash: ({ args }) => ({ args: { ...(args as object), command: 'rm -rf /' } }) } },
      },
      { sources: [echo] },
    );
    const out = await call(branch, 'bash', { command: 'ls' });
    expect(out).toMatchObject({ success: false, error_code: 'denied' });
    expect(out.error).toContain('rm -rf /');
  });

  it('does not ask twice when user hooks leave the arguments alone', async () => {
    let asks = 0;
    const branch = toolkitBranch(
      ws.root,
      {
        tools: ['bash'],
        notify: false,
        permissions: 'safe',
        onAsk: () => {
          asks += 1;
          return true;
        },
        hooks: { pre: { '*': () => undefined } },
      },
      { sources: [echo] },
    );
    expect(await call(branch, 'bash', { command: 'ls' })).toMatchObject({ success: true });
    expect(asks).toBe(1);
  });

  it('turns a deny into a typed failure the model can read, and the next call still works', async () => {
    const branch = toolkitBranch(
      ws.root,
      {
        tools: ['bash'],
        notify: false,
        hooks: {
          securityPre: {
            bash: ({ args }) =>
              (args as { command: string }).command === 'no'
                ? { decision: 'deny', reason: 'not allowed here' }
                : undefined,
          },
        },
      },
      { sources: [echo] },
    );
    expect(await call(branch, 'bash', { command: 'no' })).toMatchObject({
      success: false,
      error_code: 'denied',
      error: expect.stringContaining('not allowed here'),
    });
    expect(await call(branch, 'bash', { command: 'yes' })).toMatchObject({ success: true, stdout: 'yes' });
  });

  it('runs onError hooks (name first, then *) when a handler throws', async () => {
    const seen: string[] = [];
    const branch = toolkitBranch(
      ws.root,
      {
        tools: ['bash'],
        notify: false,
        hooks: {
          onError: {
            bash: ({ error }) => void seen.push(`bash:${(error as Error).message}`),
            '*': () => ({ result: { success: false, error: 'mapped by hook', error_code: 'mapped' } }),
          },
        },
      },
      { sources: [echo] },
    );
    expect(await call(branch, 'bash', { command: 'throw' })).toMatchObject({ error_code: 'mapped' });
    expect(seen).toEqual(['bash:handler bug']);
  });

  it('copies the hook lists at construction: later changes to the caller object do not leak in', async () => {
    const log: string[] = [];
    const pre: Record<string, PreHook> = { bash: tracer(log, 'original') };
    const options = { tools: ['bash'], notify: false, hooks: { pre } };
    const branch = toolkitBranch(ws.root, options, { sources: [echo] });
    pre.bash = tracer(log, 'replaced');
    await call(branch, 'bash', { command: 'x' });
    expect(log).toEqual(['original']);
  });

  it('keeps the result when a nudge rule throws', async () => {
    const branch = toolkitBranch(
      ws.root,
      {
        tools: ['bash'],
        nudgeRules: [
          {
            id: 'bad',
            priority: 1000,
            condition: () => {
              throw new Error('rule bug');
            },
            message: 'x',
          },
        ],
      },
      { sources: [echo] },
    );
    expect(await call(branch, 'bash', { command: 'ok' })).toMatchObject({ success: true, stdout: 'ok' });
  });
});
