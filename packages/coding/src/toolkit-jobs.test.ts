import { readdirSync, readFileSync } from 'node:fs';
import { Branch } from '@bough/core';
import { sandboxSupport } from '@bough/process';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import { commandsSandboxed } from './command-sandbox.js';
import { codingToolkit } from './toolkit.js';

const support = sandboxSupport();
let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n' });
});
afterEach(() => ws.cleanup());

/** Live (not zombie) processes whose process group is one of `groups`, from /proc. */
function survivors(groups: readonly number[]): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (groups.includes(Number(pgrp)) && state !== 'Z' && state !== 'X') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Starts a job that prints its group id and leaves a double-forked child behind, and returns that group. */
async function startGroup(branch: Branch): Promise<number> {
  const started = await call(branch, 'bash', {
    command: `sh -c 'echo group $$; (sleep 300 &); sleep 300'`,
    background: true,
  });
  expect(started).toMatchObject({ success: true });
  for (let i = 0; i < 500; i++) {
    const out = await call(branch, 'jobs', { action: 'output', job_id: started.job_id });
    const match = /group (\d+)/.exec(String(out.stdout));
    if (match) return Number(match[1]);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the job never printed its group');
}

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

  it('dispose(branch) ends that branch’s jobs only; dispose() ends every build’s, clones included', async () => {
    const toolkit = codingToolkit({ tools: ['bash', 'jobs'] });
    const first = new Branch({ workspaceRoot: ws.root, system: 'test' });
    first.registerTools(toolkit);
    const second = new Branch({ workspaceRoot: ws.root, system: 'test' });
    second.registerTools(toolkit);
    const firstGroup = await startGroup(first);
    const clone = first.clone();
    expect(await call(clone, 'jobs', { action: 'list' })).toMatchObject({ jobs: [] });
    const cloneGroup = await startGroup(clone);
    const secondGroup = await startGroup(second);
    expect(survivors([firstGroup, cloneGroup, secondGroup]).length).toBeGreaterThanOrEqual(6);

    await toolkit.dispose(first);
    expect(survivors([firstGroup])).toEqual([]);
    expect(survivors([cloneGroup]).length).toBeGreaterThanOrEqual(2);
    expect(await call(first, 'bash', { command: 'sleep 1', background: true })).toMatchObject({
      success: false,
      error_code: 'jobs_disposed',
    });

    await toolkit.dispose();
    expect(survivors([firstGroup, cloneGroup, secondGroup])).toEqual([]);
    expect(await call(second, 'jobs', { action: 'list' })).toMatchObject({
      jobs: [expect.objectContaining({ status: 'killed' })],
    });
  });

  if (!support.available) console.warn(`SKIPPED toolkit sandbox test: ${support.reason}`);
  it.skipIf(!support.available)('passes commandSandbox and network to bash', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['bash', 'jobs'], commandSandbox: 'required' });
    const result = await call(branch, 'bash', { command: 'cat a.txt' });
    expect(result).toMatchObject({ success: true, sandboxed: true, stdout: 'alpha\n' });
  });
});

describe('safe preset and the OS sandbox', () => {
  it('counts a command as sandboxed only when bubblewrap works and the mode asks for it', () => {
    const works = { available: true };
    const missing = { available: false };
    expect(commandsSandboxed('required', works)).toBe(true);
    expect(commandsSandboxed('auto', works)).toBe(true);
    expect(commandsSandboxed('auto', missing)).toBe(false);
    expect(commandsSandboxed('required', missing)).toBe(false);
    expect(commandsSandboxed('off', works)).toBe(false);
    expect(commandsSandboxed(undefined, works)).toBe(false);
  });

  it('asks for every command when the commands are not sandboxed', async () => {
    const asked: string[] = [];
    const branch = toolkitBranch(ws.root, {
      tools: ['bash', 'jobs'],
      permissions: 'safe',
      onAsk: (ask) => {
        asked.push(ask.subject);
        return false;
      },
    });
    expect(await call(branch, 'bash', { command: 'cat a.txt' })).toMatchObject({ error_code: 'denied' });
    expect(asked).toEqual(['cat a.txt']);
    expect(await call(branch, 'jobs', { action: 'list' })).toMatchObject({ success: true, jobs: [] });
  });

  if (!support.available) console.warn(`SKIPPED safe-preset sandbox auto-allow test: ${support.reason}`);
  it.skipIf(!support.available)('runs sandboxed commands without asking; deny rules still refuse', async () => {
    const asked: string[] = [];
    const branch = toolkitBranch(ws.root, {
      tools: ['bash', 'jobs'],
      permissions: 'safe',
      commandSandbox: 'auto',
      onAsk: (ask) => {
        asked.push(ask.subject);
        return false;
      },
    });
    expect(await call(branch, 'bash', { command: 'cat a.txt' })).toMatchObject({
      success: true,
      sandboxed: true,
      stdout: 'alpha\n',
    });
    expect(await call(branch, 'bash', { command: 'rm a.txt' })).toMatchObject({ error_code: 'denied' });
    // A script the deny rules cannot see into still asks, sandbox or not.
    expect(await call(branch, 'bash', { command: `sh -c '$X a.txt'` })).toMatchObject({ error_code: 'denied' });
    expect(asked).toEqual([`sh -c '$X a.txt'`]);
    expect(readFileSync(`${ws.root}/a.txt`, 'utf8')).toBe('alpha\n');
  });
});
