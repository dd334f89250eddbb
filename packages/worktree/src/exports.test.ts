import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'DEFAULT_WORKTREE_LIMITS',
    'PROTECTED_BRANCHES',
    'WORKTREE_ERROR_CODES',
    'WORKTREE_LIMITS',
    'createWorktree',
    'discardWorktree',
    'worktreeCommit',
    'worktreeDiff',
    'worktreeMerge',
  ]);
});
