import { sandboxSupport } from '@bough/process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, makeWorkspace, type TempWorkspace, toolkitBranch } from './test-helpers.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n' });
});
afterEach(() => ws.cleanup());

describe('toolkit background jobs', () => {
  it('starts jobs through bash, manages them with jobs, and gives a clone none of them', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['bash', 'jobs'] });
    const started = await call(branch, 'bash', { command: 'sleep 60', background: true });
    expect(started).toMatchObject({ success: true, sandboxed: false });
    const clone = branch.clone();
    expect(await call(clone, 'jobs', { action: 'list' })).toMatchObject({ success: true, jobs: [] });
    expect(await call(clone, 'jobs', { action: 'kill', job_id: started.job_id })).toMatchObject({
      error_code: 'job_not_found',
    });
    const killed = await call(branch, 'jobs', { action: 'kill', job_id: started.job_id });
    expect(killed).toMatchObject({ success: true, status: 'killed' });
  });

  const support = sandboxSupport();
  if (!support.available) console.warn(`SKIPPED toolkit sandbox test: ${support.reason}`);
  it.skipIf(!support.available)('passes commandSandbox and network to bash', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['bash', 'jobs'], commandSandbox: 'required' });
    const result = await call(branch, 'bash', { command: 'cat a.txt' });
    expect(result).toMatchObject({ success: true, sandboxed: true, stdout: 'alpha\n' });
  });
});
