import { chmodSync, existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitBranches, gitSync, type TempWorkspace, useGitRepo } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { worktreeDiff } from './diff.js';
import { worktreeCommit, worktreeMerge } from './merge.js';
import { createWorktree, discardWorktree, type WorktreeSession } from './session.js';

let ws: TempWorkspace;
useGitRepo({ 'a.txt': 'alpha\n', 'src/main.py': 'import os\n' }, (made) => {
  ws = made;
});

const identity = { name: 'Worktree Test', email: 'worktree@example.invalid' };
const branches = () => gitBranches(ws.root);
async function made(): Promise<WorktreeSession> {
  const result = await createWorktree(ws.root, { identity });
  if (!result.success) throw new Error(result.error);
  return result.session;
}

describe('a worktree never writes outside the repository', () => {
  it('refuses a .worktrees that is a link out of the repository', async () => {
    symlinkSync(ws.outside, join(ws.root, '.worktrees'));
    const out = await createWorktree(ws.root, { identity });
    expect(out).toMatchObject({ success: false, error_code: 'worktree_unsafe' });
    expect(JSON.stringify(out)).not.toContain(ws.outside);
  });

  it('refuses an info/exclude that is a link, instead of appending through it', async () => {
    const exclude = join(ws.root, '.git', 'info', 'exclude');
    rmSync(exclude, { force: true });
    symlinkSync(join(ws.outside, 'secret.txt'), exclude);
    expect(await createWorktree(ws.root, { identity })).toMatchObject({ error_code: 'worktree_unsafe' });
  });

  it('refuses a .git/info that is a link', async () => {
    rmSync(join(ws.root, '.git', 'info'), { recursive: true, force: true });
    symlinkSync(ws.outside, join(ws.root, '.git', 'info'));
    expect(await createWorktree(ws.root, { identity })).toMatchObject({ error_code: 'worktree_unsafe' });
  });

  it('never removes anything through a worktree that was replaced by a link out', async () => {
    const session = await made();
    rmSync(session.worktree, { recursive: true, force: true });
    symlinkSync(ws.outside, session.worktree);
    expect(await worktreeDiff(session)).toMatchObject({ error_code: 'worktree_missing' });
    expect(await worktreeCommit(session, 'x')).toMatchObject({ error_code: 'worktree_missing' });
    expect(await worktreeMerge(session)).toMatchObject({ error_code: 'worktree_missing' });
    // the discard removes the link itself (never what it points at) and finishes the cleanup
    expect(await discardWorktree(session)).toMatchObject({ success: true });
    expect(branches()).toEqual(['dev']);
  });

  it('runs no repository hooks on create, commit or merge', async () => {
    const marker = join(ws.outside, 'hook-ran');
    for (const hook of ['post-checkout', 'pre-commit', 'post-commit', 'pre-merge-commit', 'post-merge']) {
      const file = join(ws.root, '.git', 'hooks', hook);
      writeFileSync(file, `#!/bin/sh\ntouch '${marker}'\n`);
      chmodSync(file, 0o755);
    }
    const session = await made();
    writeFileSync(join(session.worktree, 'n.txt'), 'n\n');
    expect((await worktreeCommit(session, 'c')).success).toBe(true);
    expect((await worktreeMerge(session)).success).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('merge targets', () => {
  it.each(['main', 'master', 'release', 'release/1.2', 'release-2024', 'MAIN'])(
    'refuses protected %s',
    async (name) => {
      gitSync(ws.root, 'branch', '-m', 'dev', name);
      const session = await made();
      writeFileSync(join(session.worktree, 'p.txt'), 'p\n');
      expect(await worktreeMerge(session)).toMatchObject({ error_code: 'protected_branch' });
      expect(existsSync(ws.path('p.txt'))).toBe(false);
      expect(await worktreeMerge(session, { allowProtected: true })).toMatchObject({ success: true, merged: true });
      expect(existsSync(ws.path('p.txt'))).toBe(true);
    },
  );
});
