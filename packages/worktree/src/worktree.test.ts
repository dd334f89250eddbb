import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from '@bough/core';
import { gitBranches, gitSync, makeWorkspace, type TempWorkspace, useGitRepo } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { worktreeDiff } from './diff.js';
import { worktreeCommit, worktreeMerge } from './merge.js';
import { createWorktree, discardWorktree, type WorktreeSession } from './session.js';

let ws: TempWorkspace;
useGitRepo({ 'a.txt': 'alpha\n', 'src/b.txt': 'beta\n' }, (made) => {
  ws = made;
});

const identity = { name: 'Worktree Test', email: 'worktree@example.invalid' };
const branches = () => gitBranches(ws.root);

async function made(root = ws.root, prefix?: string): Promise<WorktreeSession> {
  const result = await createWorktree(root, { identity, ...(prefix ? { prefix } : {}) });
  if (!result.success) throw new Error(result.error);
  return result.session;
}

describe('a worktree session', () => {
  it('is created on its own branch under an excluded .worktrees, named by its prefix', async () => {
    const session = await made();
    expect(session.name).toMatch(/^worktree-[0-9a-f]{8}$/);
    expect(session).toMatchObject({ branch: session.name, base: 'dev', repoRoot: ws.root, workdir: session.worktree });
    expect(session.worktree).toBe(join(ws.root, '.worktrees', session.name));
    expect(readFileSync(join(ws.root, '.git', 'info', 'exclude'), 'utf8')).toContain('/.worktrees/');
    expect(gitSync(ws.root, 'status', '--porcelain')).toBe('');
    expect((await made(ws.root, 'sandbox')).name).toMatch(/^sandbox-[0-9a-f]{8}$/);
    await expect(createWorktree(ws.root, { prefix: '../up' })).rejects.toThrow(ConfigurationError);
  });

  it('diffs committed, uncommitted and untracked changes, withholding protected files and capping the patch', async () => {
    const session = await made();
    writeFileSync(join(session.worktree, 'a.txt'), 'ALPHA\n');
    writeFileSync(join(session.worktree, 'src', 'c.txt'), 'new file\n');
    writeFileSync(join(session.worktree, '.env'), 'TOKEN=TOP-SECRET\n');
    const diff = await worktreeDiff(session);
    expect(diff).toMatchObject({ success: true, files_changed: ['a.txt', '.env', 'src/c.txt'], withheld: ['.env'] });
    if (!diff.success) return;
    expect(diff.patch).toContain('+ALPHA');
    expect(diff.patch).toContain('+new file');
    expect(JSON.stringify(diff)).not.toContain('TOP-SECRET');
    const capped = await worktreeDiff(session, { limits: { patchChars: 20 } });
    expect(capped).toMatchObject({ success: true, patch_truncated: true, full_patch_chars: diff.full_patch_chars });
    await expect(worktreeDiff(session, { limits: { patchChars: -1 } })).rejects.toThrow(/patchChars/);
  });

  it('commits, merges into its base and cleans up', async () => {
    const session = await made();
    writeFileSync(join(session.worktree, 'feature.txt'), 'done\n');
    const committed = await worktreeCommit(session, 'add feature');
    expect(committed).toMatchObject({ success: true, commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const again = await worktreeCommit(session, 'again');
    expect(again).toMatchObject({ success: true, message: expect.stringContaining('Nothing') });
    expect(again).not.toHaveProperty('commit');
    writeFileSync(join(session.worktree, 'pending.txt'), 'not committed yet\n');
    const merged = await worktreeMerge(session);
    expect(merged).toEqual({ success: true, merged: true, commit: expect.any(String), message: expect.any(String) });
    expect(readFileSync(ws.path('feature.txt'), 'utf8')).toBe('done\n');
    expect(readFileSync(ws.path('pending.txt'), 'utf8')).toBe('not committed yet\n');
    expect(branches()).toEqual(['dev']);
    expect(await worktreeDiff(session)).toMatchObject({ success: false, error_code: 'worktree_missing' });
  });

  it('answers cleanup_incomplete, with merged: true, when the merge happened but the branch could not be deleted', async () => {
    const session = await made();
    writeFileSync(join(session.worktree, 'merged.txt'), 'm\n');
    expect(await worktreeCommit(session, 'm')).toMatchObject({ success: true });
    const lock = join(ws.root, '.git', 'refs', 'heads', `${session.branch}.lock`);
    writeFileSync(lock, '');
    const merged = await worktreeMerge(session);
    expect(merged).toMatchObject({
      success: false,
      error_code: 'cleanup_incomplete',
      merged: true,
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      worktree_removed: true,
      branch_deleted: false,
    });
    expect(readFileSync(ws.path('merged.txt'), 'utf8')).toBe('m\n');
    rmSync(lock);
    expect(await discardWorktree(session)).toMatchObject({ success: true });
    expect(branches()).toEqual(['dev']);
  });

  it('refuses to merge into a protected branch, by glob, unless allowed', async () => {
    gitSync(ws.root, 'checkout', '-q', '-b', 'release/2.0');
    const session = await made();
    writeFileSync(join(session.worktree, 'fix.txt'), 'fix\n');
    expect(await worktreeMerge(session)).toMatchObject({ success: false, error_code: 'protected_branch' });
    expect(await worktreeMerge(session, { protectedBranches: ['Release/*'] })).toMatchObject({
      error_code: 'protected_branch',
    });
    expect(await worktreeMerge(session, { protectedBranches: ['main'] })).toMatchObject({ success: true });
  });

  it('refuses a merge when the repository left the base branch, and aborts a conflicting one', async () => {
    const session = await made();
    writeFileSync(join(session.worktree, 'a.txt'), 'from the worktree\n');
    gitSync(ws.root, 'checkout', '-q', '-b', 'other');
    expect(await worktreeMerge(session)).toMatchObject({ success: false, error_code: 'merge_refused' });
    gitSync(ws.root, 'checkout', '-q', 'dev');
    writeFileSync(ws.path('a.txt'), 'from the base\n');
    gitSync(ws.root, 'commit', '-q', '-am', 'base change');
    const conflict = await worktreeMerge(session);
    expect(conflict).toMatchObject({
      success: false,
      error_code: 'merge_conflict',
      aborted: true,
      conflicts: ['a.txt'],
    });
    expect(gitSync(ws.root, 'status', '--porcelain')).toBe('');
    expect(existsSync(session.worktree)).toBe(true);
  });

  it('discards retry-safely: a worktree removed by hand counts as done', async () => {
    const session = await made();
    gitSync(ws.root, 'worktree', 'remove', '--force', session.worktree);
    expect(await worktreeCommit(session, 'x')).toMatchObject({ error_code: 'worktree_missing' });
    expect(await discardWorktree(session)).toEqual({
      success: true,
      worktree_removed: true,
      branch_deleted: true,
      errors: [],
    });
    expect(await discardWorktree(session)).toMatchObject({ success: true });
    expect(branches()).toEqual(['dev']);
  });

  it('works for a workspace below the repository root and fails cleanly outside a repository', async () => {
    const session = await made(ws.path('src'));
    expect(session.workdir).toBe(join(session.worktree, 'src'));
    expect(readFileSync(join(session.workdir, 'b.txt'), 'utf8')).toBe('beta\n');
    const plain = makeWorkspace({ 'x.txt': 'x\n' });
    try {
      expect(await createWorktree(plain.root)).toMatchObject({ success: false, error_code: 'not_a_git_repo' });
    } finally {
      plain.cleanup();
    }
  });
});
