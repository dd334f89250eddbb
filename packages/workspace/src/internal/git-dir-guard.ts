import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { quotePath, type WorkspaceFailure, workspaceFailure } from '../errors.js';

// What git itself looks for when it decides a directory is a repository (HEAD plus an object store or a pointer to one).
const HEAD = 'HEAD';
const STORE_MARKERS = ['objects', 'refs', 'commondir'] as const;

// Synchronous, like the resolver's own lstat per component: every write checks HEAD in each existing directory on its
// way, almost always to find nothing, and a missing name is reported without an exception or a thread-pool round trip.
async function exists(path: string): Promise<boolean> {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/**
 * True when `dir` is, or would become after writing `next` inside it, something git treats as a repository: a
 * `HEAD` beside an object store. Such a directory is a git directory under another name (the target of a
 * `.git` file's `gitdir:` line, a bare repository, a submodule's store), so its hooks and config run code later.
 */
async function looksLikeGitDir(dir: string, next: string | undefined): Promise<boolean> {
  const head = next === HEAD || (await exists(join(dir, HEAD)));
  if (!head) return false;
  for (const marker of STORE_MARKERS) {
    if (next === marker || (await exists(join(dir, marker)))) return true;
  }
  return false;
}

/**
 * Refuses a write whose real location lies inside a directory that git would use as a repository, whatever it is
 * called. `parts` are the components of the real target below `root`; only directories that exist are inspected.
 */
export async function gitDirGuard(
  root: string,
  parts: readonly string[],
  existingDirs: number,
  input: string,
): Promise<WorkspaceFailure | undefined> {
  let dir = root;
  for (let i = 0; i <= Math.min(existingDirs, parts.length - 1); i++) {
    if (await looksLikeGitDir(dir, parts[i])) {
      return workspaceFailure(
        'protected_path',
        `${quotePath(input)} is inside a git repository's own directory (it has HEAD and objects or refs); tools may not write there (hooks and config would run code later). Use git commands instead.`,
      );
    }
    dir = join(dir, parts[i] as string);
  }
  return undefined;
}
