import { existsSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitBranches, gitSync, type TempWorkspace, useGitRepo } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import type { CodingToolkitOptions } from './toolkit.js';

let ws: TempWorkspace;
useGitRepo({ 'a.txt': 'alpha\n', 'src/main.py': 'import os\n' }, (made) => {
  ws = made;
});

const identity = { name: 'Sandbox Test', email: 'sandbox@example.invalid' };
const branchFor = (options: CodingToolkitOptions = {}) =>
  toolkitBranch(ws.root, {
    tools: ['reader', 'editor', 'bash', 'sandbox'],
    notify: false,
    sandbox: { identity },
    ...options,
  });
const branches = () => gitBranches(ws.root);

describe('sandbox cleanup is retry-safe and the slot tells the truth', () => {
  it('finishes a discard after the sandbox branch was deleted by hand', async () => {
    const branch = branchFor();
    const made = await call(branch, 'sandbox', { action: 'create' });
    gitSync(ws.root, 'update-ref', '-d', `refs/heads/${made.branch}`);
    expect(await call(branch, 'sandbox', { action: 'discard' })).toMatchObject({
      success: true,
      worktree_removed: true,
      branch_deleted: true,
    });
    expect(existsSync(made.worktree as string)).toBe(false);
    expect(await call(branch, 'sandbox', { action: 'diff' })).toMatchObject({ error_code: 'no_sandbox' });
  });

  it('keeps the slot when git cannot delete the branch, and a retry finishes the job', async () => {
    const branch = branchFor();
    const made = await call(branch, 'sandbox', { action: 'create' });
    const lock = join(ws.root, '.git', 'refs', 'heads', `${made.branch}.lock`);
    writeFileSync(lock, '');
    const partial = await call(branch, 'sandbox', { action: 'discard' });
    expect(partial).toMatchObject({ success: false, worktree_removed: true, branch_deleted: false });
    expect((partial.errors as string[]).join(' ')).toMatch(/branch delete/);
    // the slot is still set (worktree gone, branch not): create is refused, other actions point to discard
    expect(await call(branch, 'sandbox', { action: 'create' })).toMatchObject({ error_code: 'sandbox_active' });
    expect(await call(branch, 'sandbox', { action: 'diff' })).toMatchObject({ error_code: 'sandbox_missing' });
    rmSync(lock);
    expect(await call(branch, 'sandbox', { action: 'discard' })).toMatchObject({ success: true, branch_deleted: true });
    expect(branches()).toEqual(['dev']);
    expect((await call(branch, 'sandbox', { action: 'create' })).success).toBe(true);
  });

  it('keeps the slot when git fails altogether, and a retry after repair cleans up', async () => {
    const branch = branchFor();
    const made = await call(branch, 'sandbox', { action: 'create' });
    const head = join(ws.root, '.git', 'HEAD');
    renameSync(head, `${head}.away`);
    const failed = await call(branch, 'sandbox', { action: 'discard' });
    expect(failed).toMatchObject({ success: false, branch_deleted: false });
    expect(await call(branch, 'sandbox', { action: 'create' })).toMatchObject({ error_code: 'sandbox_active' });
    renameSync(`${head}.away`, head);
    expect(await call(branch, 'sandbox', { action: 'discard' })).toMatchObject({ success: true });
    expect(existsSync(made.worktree as string)).toBe(false);
    expect(branches()).toEqual(['dev']);
  });

  it('reports a merge whose cleanup failed as incomplete and keeps the slot until discard', async () => {
    const branch = branchFor();
    const made = await call(branch, 'sandbox', { action: 'create' });
    await call(branch, 'editor', { action: 'write', file_path: 'merged.txt', content: 'm\n' });
    expect((await call(branch, 'sandbox', { action: 'commit', message: 'm' })).success).toBe(true);
    const lock = join(ws.root, '.git', 'refs', 'heads', `${made.branch}.lock`);
    writeFileSync(lock, '');
    const merged = await call(branch, 'sandbox', { action: 'merge' });
    expect(merged).toMatchObject({ success: false, merged: true, branch_deleted: false });
    expect(merged.message).toMatch(/cleanup is incomplete/);
    expect(existsSync(ws.path('merged.txt'))).toBe(true);
    expect(await call(branch, 'sandbox', { action: 'create' })).toMatchObject({ error_code: 'sandbox_active' });
    rmSync(lock);
    expect(await call(branch, 'sandbox', { action: 'discard' })).toMatchObject({ success: true });
    expect(branches()).toEqual(['dev']);
  });
});

describe('the sandbox never writes outside the repository', () => {
  it('refuses a .worktrees that is a link out of the repository', async () => {
    symlinkSync(ws.outside, join(ws.root, '.worktrees'));
    const out = await call(branchFor(), 'sandbox', { action: 'create' });
    expect(out).toMatchObject({ success: false, error_code: 'sandbox_unsafe' });
    expect(JSON.stringify(out)).not.toContain(ws.outside);
  });

  it('never removes anything through a worktree that was replaced by a link out', async () => {
    const branch = branchFor();
    const made = await call(branch, 'sandbox', { action: 'create' });
    rmSync(made.worktree as string, { recursive: true, force: true });
    symlinkSync(ws.outside, made.worktree as string);
    for (const action of ['diff', 'commit', 'merge']) {
      expect(await call(branch, 'sandbox', { action, message: 'x' }), action).toMatchObject({
        error_code: 'sandbox_missing',
      });
    }
    // discard removes the link itself (never what it points at) and finishes the cleanup
    expect(await call(branch, 'sandbox', { action: 'discard' })).toMatchObject({ success: true });
    expect(branches()).toEqual(['dev']);
  });

  it('keeps a full lifecycle inside the repository', async () => {
    const branch = branchFor();
    await call(branch, 'sandbox', { action: 'create' });
    await call(branch, 'editor', { action: 'write', file_path: 'x.txt', content: 'x\n' });
    const escaped = await call(branch, 'editor', { action: 'write', file_path: '../ws-evil/y.txt', content: 'y\n' });
    expect(escaped.success).toBe(false);
    await call(branch, 'sandbox', { action: 'diff' });
    await call(branch, 'sandbox', { action: 'commit', message: 'x' });
    await call(branch, 'sandbox', { action: 'merge' });
    // afterEach checks that nothing outside changed; here, that nothing landed next to the repository either.
    expect(existsSync(join(ws.outside, 'y.txt'))).toBe(false);
  });
});
