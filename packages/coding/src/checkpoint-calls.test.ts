import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxSupport } from '@bough/process';
import { eventually, makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'run.sh': 'echo hi\n' });
});
afterEach(() => ws.cleanup());

type Entry = {
  id: string;
  before: string;
  tool?: string;
  call_id?: string;
  kind: string;
  label?: string;
  files: string[];
};
const list = async (branch: ReturnType<typeof toolkitBranch>) =>
  ((await call(branch, 'checkpoints', { action: 'list', limit: 50 })) as { checkpoints: Entry[] }).checkpoints;

describe('toolkit checkpoints option', () => {
  it('is off by default: no checkpoints tool', () => {
    const branch = toolkitBranch(ws.root);
    expect(branch.registry.names()).not.toContain('checkpoints');
  });

  it('checkpoints editor and bash calls, attributed to branch and call; the model can undo a command', async () => {
    const branch = toolkitBranch(ws.root, {
      checkpoints: { stateDir: join(ws.base, 'state') },
      tools: ['reader', 'editor', 'bash'],
    });
    const outside = snapshotTree(ws.outside);
    await call(branch, 'editor', { action: 'write', file_path: 'b.txt', content: 'beta\n' });
    const ran = await call(branch, 'bash', {
      command:
        "python3 -c \"import os; open('a.txt','w').write('changed'); os.chmod('run.sh', 0o755); os.remove('b.txt')\"",
    });
    expect(ran).toMatchObject({ success: true, return_code: 0 });
    await call(branch, 'reader', { action: 'read', file_path: 'a.txt' });
    const entries = await list(branch);
    const calls = entries.filter((e) => e.kind === 'after');
    expect(calls.map((e) => e.tool)).toEqual(['bash', 'editor']);
    expect(calls[0]!.files).toEqual(['a.txt', 'b.txt', 'run.sh']);
    const undo = await call(branch, 'checkpoints', { action: 'restore', to: calls[0]!.before });
    expect(undo).toMatchObject({ success: true });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('alpha\n');
    expect(readFileSync(ws.path('b.txt'), 'utf8')).toBe('beta\n');
    expect(statSync(ws.path('run.sh')).mode & 0o777).toBe(0o644);
    expect(snapshotTree(ws.outside)).toBe(outside);
  });

  it("a clone of the branch sees the same history and can undo the source's call", async () => {
    const branch = toolkitBranch(ws.root, { checkpoints: { stateDir: join(ws.base, 'state') }, tools: ['editor'] });
    expect(await call(branch, 'editor', { action: 'write', file_path: 'n.txt', content: 'by source\n' })).toMatchObject(
      {
        success: true,
      },
    );
    const clone = branch.clone();
    const entries = await list(clone);
    const edit = entries.find((e) => e.tool === 'editor')!;
    expect(edit).toMatchObject({ kind: 'after', files: ['n.txt'] });
    expect(await call(clone, 'checkpoints', { action: 'restore', to: edit.before })).toMatchObject({
      error_code: 'conflict',
      conflicts: ['n.txt'],
    });
    expect(existsSync(ws.path('n.txt'))).toBe(true);
    const forced = { action: 'restore', to: edit.before, force: true };
    expect(await call(clone, 'checkpoints', forced)).toMatchObject({ success: true, overwritten: ['n.txt'] });
    expect(existsSync(ws.path('n.txt'))).toBe(false);
  });

  it('a background job that writes while the model keeps working is undone with the calls', async () => {
    const branch = toolkitBranch(ws.root, {
      checkpoints: { stateDir: join(ws.base, 'state') },
      tools: ['editor', 'bash', 'jobs'],
    });
    const started = await call(branch, 'bash', {
      command: "python3 -c \"import time; time.sleep(0.5); open('late.txt','w').write('late')\"",
      background: true,
    });
    expect(started).toMatchObject({ success: true });
    await call(branch, 'editor', { action: 'write', file_path: 'c.txt', content: 'c\n' });
    const waited = await call(branch, 'jobs', { action: 'wait', job_id: started.job_id, timeout: 20_000 });
    expect(waited).toMatchObject({ status: 'exited', return_code: 0 });
    expect(existsSync(ws.path('late.txt'))).toBe(true);
    const entries = await list(branch);
    // The job's file is attributed to a call that ran while or after it wrote (the editor's or the jobs wait's).
    expect(entries.filter((e) => e.files.includes('late.txt'))).toHaveLength(1);
    // The oldest checkpoint is the state before the job started; restoring it removes what the job and the editor wrote.
    const undo = await call(branch, 'checkpoints', { action: 'restore', to: entries.at(-1)!.id, force: true });
    expect(undo).toMatchObject({ success: true });
    expect(existsSync(ws.path('late.txt'))).toBe(false);
    expect(existsSync(ws.path('c.txt'))).toBe(false);
  });

  const sandbox = sandboxSupport();
  it.skipIf(!sandbox.available)('a command inside the OS sandbox is checkpointed and undone the same way', async () => {
    const branch = toolkitBranch(ws.root, {
      checkpoints: { stateDir: join(ws.base, 'state') },
      tools: ['bash'],
      commandSandbox: 'required',
    });
    // The system python: the sandbox hides home directories, where version managers keep theirs.
    const ran = await call(branch, 'bash', { command: "/usr/bin/python3 -c \"open('a.txt','a').write('more')\"" });
    expect(ran, JSON.stringify(ran)).toMatchObject({ success: true, sandboxed: true, return_code: 0 });
    const [last] = await list(branch);
    expect(last).toMatchObject({ tool: 'bash', files: ['a.txt'] });
    expect(await call(branch, 'checkpoints', { action: 'restore', to: last!.before })).toMatchObject({ success: true });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('alpha\n');
  });
});

describe('background jobs end with a checkpoint of their own', () => {
  it('what a job writes after its start call returned is attributed to that call when the job ends', async () => {
    const branch = toolkitBranch(ws.root, {
      checkpoints: { stateDir: join(ws.base, 'state') },
      tools: ['bash', 'jobs'],
    });
    const started = await branch.act({
      name: 'bash',
      arguments: {
        command: "python3 -c \"import time; time.sleep(0.5); open('late.txt','w').write('late')\"",
        background: true,
      },
    });
    expect(started.output).toMatchObject({ success: true, job_id: 'job_1' });
    // No other call runs meanwhile: only the job's end can record the file.
    const entry = await eventually(async () => (await list(branch)).find((e) => e.files.includes('late.txt')));
    expect(entry).toMatchObject({
      kind: 'after',
      tool: 'bash',
      call_id: started.id,
      label: 'background job job_1 ended (exited)',
    });
  });
});
