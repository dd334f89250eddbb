import { get } from 'node:http';
import { eventually, isRunning, makeWorkspace, survivors, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleBash } from './handle-bash.js';
import { JobStore } from './job-store.js';
import type { BashJobStarted } from './jobs-schema.js';
import { type BashToolSet, bashProvider, createBashTools } from './tool-set.js';

let ws: TempWorkspace;
let sets: BashToolSet[];
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'a\n' });
  sets = [];
});
afterEach(async () => {
  await Promise.all(sets.map((set) => set.dispose()));
  ws.cleanup();
});

const ctx = () => ({ signal: new AbortController().signal, callId: 't' });
function tools(limits: Parameters<typeof createBashTools>[0]['limits'] = {}): BashToolSet {
  const set = createBashTools({ workspaceRoot: ws.root, limits });
  sets.push(set);
  return set;
}
async function start(set: BashToolSet, command: string, extra: Record<string, unknown> = {}): Promise<BashJobStarted> {
  const answer = await set.bash.handler({ command, background: true, ...extra } as never, ctx());
  expect(answer).toMatchObject({ success: true, command, sandboxed: false });
  return answer as BashJobStarted;
}
// biome-ignore lint/suspicious/noExplicitAny: test access to the loose answer shape
const jobs = (set: BashToolSet, request: Record<string, unknown>): Promise<any> =>
  set.jobs.handler(request as never, ctx());

/** Reads the job's stdout until `pattern` appears; returns the match. */
async function waitFor(set: BashToolSet, id: string, pattern: RegExp): Promise<RegExpMatchArray> {
  return eventually(async () => {
    const out = await jobs(set, { action: 'output', job_id: id });
    return out.stdout.match(pattern) ?? undefined;
  });
}
const NODE = process.execPath;

describe('background jobs', () => {
  it('answers at once and keeps a loopback server running while other calls work', async () => {
    const set = tools();
    const server = `${NODE} -e "require('http').createServer((q,r)=>r.end('pong')).listen(0,'127.0.0.1',function(){console.log('port '+this.address().port)})"`;
    const job = await start(set, server);
    expect(job.job_id).toMatch(/^job_\d+$/);
    expect(Date.parse(job.started_at)).not.toBeNaN();
    const port = Number((await waitFor(set, job.job_id, /port (\d+)/))[1]);
    // A foreground call runs while the job keeps serving.
    const other = await set.bash.handler({ command: 'cat a.txt' }, ctx());
    expect(other).toMatchObject({ stdout: 'a\n', return_code: 0 });
    const body = await new Promise<string>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/' }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(text));
      }).on('error', reject);
    });
    expect(body).toBe('pong');
    const list = await jobs(set, { action: 'list' });
    expect(list.jobs).toEqual([expect.objectContaining({ job_id: job.job_id, status: 'running', return_code: null })]);
    const killed = await jobs(set, { action: 'kill', job_id: job.job_id });
    expect(killed).toMatchObject({ success: true, status: 'killed' });
  });

  it('hands out output in pieces by offset, and head and tail when more arrived than max_bytes', async () => {
    const set = tools();
    const job = await start(
      set,
      `${NODE} -e "let i=0;const t=setInterval(()=>{console.log('line'+i++);if(i===6)clearInterval(t)},40)"`,
    );
    let since = { stdout: 0, stderr: 0 };
    let text = '';
    let reads = 0;
    for (;;) {
      const out = await jobs(set, { action: 'wait', job_id: job.job_id, since, timeout: 60 });
      text += out.stdout;
      since = out.next;
      reads++;
      if (out.status !== 'running') {
        expect(out).toMatchObject({ status: 'exited', return_code: 0 });
        break;
      }
    }
    expect(text).toBe('line0\nline1\nline2\nline3\nline4\nline5\n');
    expect(reads).toBeGreaterThan(1);
    expect(since.stdout).toBe(text.length);
    const again = await jobs(set, { action: 'output', job_id: job.job_id, since });
    expect(again.stdout).toBe('');
    const small = await jobs(set, { action: 'output', job_id: job.job_id, max_bytes: 12 });
    expect(small.stdout).toMatch(/^line0\n\n\[\.\.\. \d+ bytes of stdout left out here.*\]\nline5\n$/s);
    expect(small.next.stdout).toBe(text.length);
    expect(small.note).toMatch(/max_bytes/);
  });

  it('keeps only the newest output of a flood and says how much was dropped', async () => {
    const set = tools({ jobOutputBytes: 65_536 });
    const job = await start(set, `${NODE} -e "process.stdout.write('x'.repeat(4000000)+'END')"`);
    const out = await jobs(set, { action: 'wait', job_id: job.job_id, timeout: 60_000, max_bytes: 1_000_000 });
    expect(out).toMatchObject({ status: 'exited', return_code: 0, next: { stdout: 4_000_003 } });
    expect(out.stdout).toMatch(/^\[\.\.\. 3934467 older bytes of stdout were dropped/);
    expect(out.stdout.endsWith('xxxEND')).toBe(true);
    expect(out.stdout.length).toBeLessThan(65_536 + 200);
    expect(out.note).toMatch(/dropped/);
  });

  it('wait reads a non-positive or non-finite timeout as the default (the shared clampTimeout rule)', async () => {
    const set = tools({ defaultTimeoutMs: 20_000 });
    for (const timeout of [0, -5, Number.NEGATIVE_INFINITY, Number.NaN, Number.POSITIVE_INFINITY]) {
      const job = await start(set, 'sleep 0.3');
      // Through the store: a zero or negative timeout used to mean "return at once", with the job still running.
      const read = await set.store.wait(job.job_id, timeout, {});
      expect(read).toMatchObject({ status: 'exited', return_code: 0 });
    }
    const job = await start(set, 'sleep 0.3');
    const out = await jobs(set, { action: 'wait', job_id: job.job_id, timeout: 0 });
    expect(out).toMatchObject({ success: true, status: 'exited' });
    expect(out.note).toMatch(/not positive.*default of 20000 ms/);
  });

  it('wait never waits longer than jobWaitMaxMs and says it cut the timeout', async () => {
    const set = tools({ jobWaitMaxMs: 300 });
    const job = await start(set, 'sleep 60');
    const out = await jobs(set, { action: 'wait', job_id: job.job_id, timeout: 60_000 });
    expect(out).toMatchObject({ success: true, status: 'running' });
    expect(out.note).toMatch(/above the maximum; used 300 ms/);
    await jobs(set, { action: 'kill', job_id: job.job_id });
  });

  it('runs as many jobs as maxJobs allows and refuses one more; the default is 8', async () => {
    const ten = tools({ maxJobs: 10 });
    const started = await Promise.all(Array.from({ length: 10 }, () => start(ten, 'sleep 60')));
    expect(new Set(started.map((job) => job.job_id)).size).toBe(10);
    const eleventh = await ten.bash.handler({ command: 'sleep 60', background: true }, ctx());
    expect(eleventh).toMatchObject({ success: false, error_code: 'too_many_jobs' });
    const fallback = tools();
    for (let i = 0; i < 8; i++) await start(fallback, 'sleep 60');
    const ninth = await fallback.bash.handler({ command: 'sleep 60', background: true }, ctx());
    expect(ninth).toMatchObject({ success: false, error_code: 'too_many_jobs' });
    // Once one ends, there is room again.
    await jobs(ten, { action: 'kill', job_id: started[0]?.job_id });
    await start(ten, 'sleep 60');
  });

  it('kill stops a job whose children double-forked out of its way', async () => {
    const set = tools();
    const job = await start(set, `sh -c 'echo group $$; (sleep 300 & echo orphan $!); sleep 300'`);
    const orphan = Number((await waitFor(set, job.job_id, /orphan (\d+)/))[1]);
    const group = Number((await waitFor(set, job.job_id, /group (\d+)/))[1]);
    expect(isRunning(orphan)).toBe(true);
    const killed = await jobs(set, { action: 'kill', job_id: job.job_id });
    expect(killed).toMatchObject({ status: 'killed', return_code: -1, signal: 'SIGTERM' });
    expect(isRunning(orphan)).toBe(false);
    expect(survivors([group])).toEqual([]);
  });

  it('stops a job that outlives its timeout with status timed_out', async () => {
    const set = tools();
    const job = await start(set, 'sleep 60', { timeout: 200 });
    const out = await jobs(set, { action: 'wait', job_id: job.job_id, timeout: 60_000 });
    expect(out).toMatchObject({ status: 'timed_out', return_code: -1 });
  });

  it('leaves nothing running after dispose and refuses new jobs', async () => {
    const set = tools();
    const groups: number[] = [];
    for (let i = 0; i < 3; i++) {
      const job = await start(set, `sh -c 'echo group $$; (sleep 300 &); sleep 300'`);
      groups.push(Number((await waitFor(set, job.job_id, /group (\d+)/))[1]));
    }
    expect(survivors(groups).length).toBeGreaterThanOrEqual(6);
    await set.dispose();
    expect(survivors(groups)).toEqual([]);
    const after = await set.bash.handler({ command: 'sleep 1', background: true }, ctx());
    expect(after).toMatchObject({ success: false, error_code: 'jobs_disposed' });
  });

  it('applies the cwd and command rules of a normal call', async () => {
    const set = tools();
    const bad = await set.bash.handler({ command: 'sleep 1 &', background: true }, ctx());
    expect(bad).toMatchObject({ success: false, error_code: 'shell_operator' });
    const outside = await set.bash.handler({ command: 'pwd', background: true, cwd: '../ws-evil' }, ctx());
    expect(outside).toMatchObject({ success: false });
    const missing = await set.bash.handler({ command: 'no-such-program-xyz', background: true }, ctx());
    expect(missing).toMatchObject({ success: false, error_code: 'command_not_found' });
    const inSub = await start(set, 'pwd', { cwd: '.' });
    const out = await jobs(set, { action: 'wait', job_id: inSub.job_id, timeout: 60_000 });
    expect(out.stdout).toBe(`${ws.root}\n`);
  });

  it('refuses unknown jobs and bad requests with typed failures', async () => {
    const set = tools();
    expect(await jobs(set, { action: 'output', job_id: 'job_99' })).toMatchObject({ error_code: 'job_not_found' });
    expect(await jobs(set, { action: 'output' })).toMatchObject({ error_code: 'invalid_request' });
    expect(await jobs(set, { action: 'run' })).toMatchObject({ error_code: 'invalid_request' });
  });
});

describe('job ownership', () => {
  it('gives every branch its own jobs: a clone starts with none and cannot touch the source', async () => {
    const provider = bashProvider({ workspaceRoot: ws.root });
    const [bashA, jobsA] = provider.build({} as never);
    const [, jobsB] = provider.build({} as never);
    try {
      const started = (await bashA?.handler({ command: 'sleep 60', background: true }, ctx())) as BashJobStarted;
      expect((await jobsB?.handler({ action: 'list' }, ctx())) as unknown).toEqual({ success: true, jobs: [] });
      const foreign = await jobsB?.handler({ action: 'kill', job_id: started.job_id }, ctx());
      expect(foreign).toMatchObject({ success: false, error_code: 'job_not_found' });
      expect(await jobsA?.handler({ action: 'list' }, ctx())).toMatchObject({ jobs: [{ status: 'running' }] });
    } finally {
      await provider.dispose();
    }
    expect(await jobsA?.handler({ action: 'list' }, ctx())).toMatchObject({ jobs: [{ status: 'killed' }] });
  });

  it('a bash tool without a job store refuses background requests', async () => {
    const { handleBash } = await import('./handle-bash.js');
    const answer = await handleBash({ command: 'sleep 1', background: true }, { workspaceRoot: ws.root });
    expect(answer).toMatchObject({ success: false, error_code: 'jobs_unavailable' });
  });
});

describe('job end listeners', () => {
  it('tell every listener the final state of each job that ends, until unsubscribed', async () => {
    const store = new JobStore();
    const seen: string[] = [];
    const stop = store.onJobEnd((job) => seen.push(`${job.job_id} ${job.status} ${job.return_code}`));
    store.onJobEnd(() => {
      throw new Error('a broken listener');
    });
    const first = await handleBash({ command: 'true', background: true }, { workspaceRoot: ws.root, jobs: store });
    if (!first.success || !('job_id' in first)) throw new Error('no job');
    await eventually(async () => (seen.length > 0 ? true : undefined));
    expect(seen).toEqual([`${first.job_id} exited 0`]);
    stop();
    await handleBash({ command: 'true', background: true }, { workspaceRoot: ws.root, jobs: store });
    await eventually(async () => (store.list().every((job) => job.status !== 'running') ? true : undefined));
    expect(seen).toHaveLength(1);
    await store.dispose();
  });
});
