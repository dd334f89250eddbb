import { ConfigurationError } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  BASH_ERROR_CODES,
  type BashErrorCode,
  createBashTool,
  createBashTools,
  handleBash,
  handleJobs,
  JobStore,
} from './index.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'x\n' });
});
afterEach(() => ws.cleanup());

describe('limits through core defineLimits', () => {
  it('a bad override throws a ConfigurationError naming the key when the tools are built', () => {
    expect(() => createBashTool({ workspaceRoot: ws.root, limits: { maxOutputBytes: -5 } })).toThrow(
      /bash limits\.maxOutputBytes must be a positive integer/,
    );
    expect(() => createBashTools({ workspaceRoot: ws.root, limits: { maxJobs: 0 } })).toThrow(ConfigurationError);
  });

  it('the descriptions state the resolved limits', async () => {
    const set = createBashTools({
      workspaceRoot: ws.root,
      limits: { defaultTimeoutMs: 4_000, maxTimeoutMs: 9_000, maxOutputBytes: 2_048, maxJobs: 3 },
    });
    expect(set.bash.description).toContain('default 4,000, max 9,000');
    expect(set.bash.description).toContain('Output over 2,048 bytes');
    expect(set.jobs.description).toContain('at most 3 run at once');
    await set.dispose();
  });
});

describe('typed failures and success on both arms', () => {
  it('error_code is typed by the table; the response narrows by success', async () => {
    const out = await handleBash({ command: 'ls | wc' }, { workspaceRoot: ws.root });
    expect(out.success).toBe(false);
    if (!out.success) {
      expectTypeOf(out.error_code).toEqualTypeOf<BashErrorCode>();
      expect(BASH_ERROR_CODES).toContain(out.error_code);
      expect(out.error_code).toBe('shell_operator');
    }
  });
});

describe('bash responses narrow by background', () => {
  it('background: true answers with a job handle, a foreground run with its output', async () => {
    const store = new JobStore({});
    const opts = { workspaceRoot: ws.root, jobs: store };
    const job = await handleBash({ command: 'ls', background: true }, opts);
    expect(job).toMatchObject({ success: true, command: 'ls' });
    if (job.success) {
      expectTypeOf(job.job_id).toEqualTypeOf<string>();
      expectTypeOf(job.started_at).toEqualTypeOf<string>();
      // @ts-expect-error: a job handle has no stdout yet
      void job.stdout;
    } else expectTypeOf(job.error_code).toEqualTypeOf<BashErrorCode>();
    const ran = await handleBash({ command: 'ls' }, opts);
    expect(ran).toMatchObject({ success: true, return_code: 0 });
    if (ran.success) {
      expectTypeOf(ran.stdout).toEqualTypeOf<string>();
      expectTypeOf(ran.return_code).toEqualTypeOf<number>();
      // @ts-expect-error: a foreground run has no job
      void ran.job_id;
    }
    const quiet = await handleBash({ command: 'ls', background: false }, opts);
    if (quiet.success) expectTypeOf(quiet.stdout).toEqualTypeOf<string>();
    // Known only at run time: either success shape, so neither field is there without checking.
    const either = await handleBash({ command: 'ls', background: Math.random() > 2 }, opts);
    if (either.success) {
      expectTypeOf(either.sandboxed).toEqualTypeOf<boolean>();
      if ('job_id' in either) expectTypeOf(either.job_id).toEqualTypeOf<string>();
      else expectTypeOf(either.stdout).toEqualTypeOf<string>();
    }
    await store.dispose();
  });
});

describe('jobs responses narrow by action', () => {
  it('list answers with jobs, output/wait/kill with one job; a wrong action does not compile', async () => {
    const store = new JobStore({});
    const list = await handleJobs({ action: 'list' }, store);
    expect(list).toMatchObject({ success: true, jobs: [] });
    if (list.success) expectTypeOf(list.jobs).toBeArray();
    const missing = await handleJobs({ action: 'wait', job_id: 'nope', timeout: 10 }, store);
    expect(missing).toMatchObject({ success: false, error_code: 'job_not_found' });
    if (missing.success) {
      expectTypeOf(missing.stdout).toEqualTypeOf<string>();
      expectTypeOf(missing.next).toEqualTypeOf<{ stdout: number; stderr: number }>();
    } else expectTypeOf(missing.error_code).toEqualTypeOf<BashErrorCode>();
    // @ts-expect-error: a list answer has no stdout
    if (list.success) void list.stdout;
    // @ts-expect-error: there is no such action
    await handleJobs({ action: 'nope' }, store);
    await store.dispose();
  });
});
