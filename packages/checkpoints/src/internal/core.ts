import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Workspace } from '@bough/workspace';
import type { CheckpointsLimits } from '../limits.js';
import type { ChangeWatch } from './change-watch.js';
import type { Exclusions } from './exclusions.js';
import { type GitContext, type GitStepOptions, git } from './git.js';
import type { StoreLayout } from './layout.js';

/** The empty tree's id (sha1 repositories): the "before" of the first checkpoint. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Everything the store's steps share. */
export interface StoreCore {
  readonly layout: StoreLayout;
  readonly git: GitContext;
  readonly workspace: Workspace;
  readonly limits: CheckpointsLimits;
  readonly respectGitignore: boolean;
  readonly exclusions: Exclusions;
  /** Paths the caller keeps out (never stored, shown or restored); undefined when it keeps none out. */
  readonly exclude?: (relativePath: string) => boolean;
  /** Trees of commits seen, so the newest checkpoint's tree costs no process. */
  readonly trees: Map<string, string>;
  /** Whether anything in the workspace changed since the last status check (so an unchanged tree needs none). */
  readonly watch: ChangeWatch;
  /** Set once the index was proven to hold the newest checkpoint's tree in this process. */
  synced: boolean;
}

/** Thrown inside a locked step when git fails; turned into a `store_error` value at the public edge. */
export class StoreFault extends Error {}

/** Runs git and returns stdout, or throws {@link StoreFault} with git's message. */
export async function gitOut(core: StoreCore, args: readonly string[], options?: GitStepOptions): Promise<Buffer> {
  const out = await git(core.git, args, options);
  if (!out.ok) throw new StoreFault(out.message);
  return out.stdout;
}

/** The newest checkpoint's id, read from the loose ref file (no process), or undefined for an empty store. */
export async function readHead(core: StoreCore): Promise<string | undefined> {
  let id = '';
  try {
    id = readFileSync(core.layout.refFile, 'utf8').trim();
  } catch {
    // no checkpoint yet
  }
  return /^[0-9a-f]{40,64}$/u.test(id) ? id : undefined;
}

/**
 * Moves the ref to a new checkpoint; the store lock is held, so a plain atomic file replace is enough: a temp file
 * renamed over the ref, so a reader sees the old id or the new one, never a half-written line.
 *
 * No write of the store is fsynced, on purpose, and neither are git's own: git's default `core.fsync` leaves loose
 * objects, the index and refs to the page cache, exactly as the plain `git add && git commit` of a shadow-git peer
 * does. A crash of the process (the case that happens: a killed agent, a timeout) loses nothing written, since the
 * page cache survives it, and the rename keeps the ref whole. Only a crash of the whole machine can lose the newest
 * checkpoints' objects; that costs history, never the workspace's files, which the store only ever reads. An fsync
 * per checkpoint would instead make every call wait for everything the machine has still to write (on ext4 a
 * journal commit flushes other files' data too), which is what made checkpoints slow while other work wrote.
 */
export async function writeHead(core: StoreCore, id: string): Promise<void> {
  const temp = `${core.layout.refFile}.tmp`;
  mkdirSync(dirname(core.layout.refFile), { recursive: true });
  writeFileSync(temp, `${id}\n`);
  renameSync(temp, core.layout.refFile);
}

/** The tree of a checkpoint (the empty tree for none). */
export async function treeOf(core: StoreCore, commit: string | undefined): Promise<string> {
  if (commit === undefined) return EMPTY_TREE;
  const known = core.trees.get(commit);
  if (known) return known;
  const tree = (await gitOut(core, ['rev-parse', `${commit}^{tree}`])).toString('utf8').trim();
  core.trees.set(commit, tree);
  return tree;
}
