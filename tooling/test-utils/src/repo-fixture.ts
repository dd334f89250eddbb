import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, expect } from 'vitest';
import { gitSync, initRepo } from './git.js';
import { snapshotTree } from './snapshot.js';
import { makeWorkspace, type TempWorkspace } from './workspace.js';

/**
 * The lifecycle of a git-worktree test file (the worktree package and coding's worktree tool share it): before each
 * test a fresh {@link makeWorkspace} with `files`, made a repository on `branch` with one commit, handed to `use`;
 * after it, nothing outside the repository may have changed (the sibling tree is as it was and nothing new stands
 * beside the two), then the tree is removed.
 */
export function useGitRepo(files: Record<string, string>, use: (ws: TempWorkspace) => void, branch = 'dev'): void {
  let ws: TempWorkspace | undefined;
  let outsideBefore = '';
  beforeEach(() => {
    ws = makeWorkspace(files);
    initRepo(ws.root, branch);
    outsideBefore = snapshotTree(ws.outside);
    use(ws);
  });
  afterEach(() => {
    const done = ws;
    ws = undefined;
    if (!done) return;
    try {
      expect(snapshotTree(done.outside)).toBe(outsideBefore);
      expect(readdirSync(done.base).sort()).toEqual(['ws', 'ws-evil']);
    } finally {
      done.cleanup();
    }
  });
}

/** The local branches of a repository, by short name. */
export function gitBranches(root: string): string[] {
  return gitSync(root, 'branch', '--format=%(refname:short)').split('\n').filter(Boolean);
}
