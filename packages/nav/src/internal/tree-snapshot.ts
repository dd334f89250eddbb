import { lstatSync, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Workspace } from '@bough/workspace';

/** A file the last walk yielded, with the size and mtime it had then. */
export interface TreeFile {
  readonly path: string;
  readonly relative: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** What the walk left out, by reason (the keys the navigation responses report). */
export interface TreeSkips {
  readonly protected: number;
  readonly ignored: number;
  readonly links: number;
  readonly special: number;
  readonly unreadable: number;
}

/** The files under one directory, as of the last walk or the last check that nothing was added or removed. */
export interface TreeListing {
  readonly files: readonly TreeFile[];
  readonly skipped: TreeSkips;
}

/** Stat calls in flight at once while checking a snapshot; enough to hide latency, few enough not to flood libuv. */
export const STAT_CONCURRENCY = 32;

const dirStamp = (mtimeMs: number) => `d:${mtimeMs}`;

const stampOfStats = (st: Stats): string =>
  st.isDirectory() ? dirStamp(st.mtimeMs) : `${st.isFile() ? 'f' : 'o'}:${st.size}:${st.mtimeMs}`;

/** A cheap fingerprint of a path's metadata, or 'absent': a directory by its mtime, anything else by kind, size and mtime. */
export async function stampOf(path: string): Promise<string> {
  try {
    return stampOfStats(await lstat(path));
  } catch {
    return 'absent';
  }
}

/**
 * {@link stampOf} for many paths at once, synchronously. Checking a warm project stats every file on every call; a
 * synchronous lstat costs a few microseconds, while a promise through the thread pool costs several times that, and
 * the language service that runs next blocks the thread anyway.
 */
export function stampsOf(paths: readonly string[]): string[] {
  return paths.map((path) => {
    try {
      const st = lstatSync(path, { throwIfNoEntry: false });
      return st ? stampOfStats(st) : 'absent';
    } catch {
      return 'absent';
    }
  });
}

/** Runs `task` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * The result of one workspace walk of a directory, kept so later calls need not walk again. The walk itself goes
 * through the workspace gate; afterwards only the metadata of the directories it entered (and of the `.gitignore`
 * each may hold) is checked. Adding, removing or renaming anything changes a directory's mtime and a changed
 * `.gitignore` changes what is listed, so either one makes the next {@link TreeSnapshot.listing} walk again.
 * Contents of files are never taken from here: readers still read every file through the gate.
 */
export class TreeSnapshot {
  readonly #dir: string;
  #listing: TreeListing | undefined;
  /** Directory (or its .gitignore) path → stamp at walk time. */
  #watched = new Map<string, string>();

  constructor(dir: string) {
    this.#dir = dir;
  }

  #unchanged(): boolean {
    if (!this.#listing) return false;
    const paths = [...this.#watched.keys()];
    const stamps = stampsOf(paths);
    return stamps.every((stamp, i) => stamp === this.#watched.get(paths[i]!));
  }

  /** The files under the directory; walks through the workspace only when something may have been added or removed. */
  async listing(workspace: Workspace): Promise<TreeListing> {
    if (this.#listing && this.#unchanged()) return this.#listing;
    const root = await workspace.resolve(this.#dir, 'list');
    // Stamped before the walk reads anything, so a change made while it runs is seen by the next check.
    const rootStamp = root.success ? await stampOf(root.path) : 'absent';
    const files: TreeFile[] = [];
    const dirs = new Map<string, string>();
    const walk = workspace.walk(this.#dir, { recursive: true });
    let step = await walk.next();
    for (; !step.done; step = await walk.next()) {
      const entry = step.value;
      // The walk stats a directory before listing it, so its mtime here predates what was read from it.
      if (entry.kind === 'directory') dirs.set(entry.path, dirStamp(entry.mtimeMs ?? Number.NaN));
      else
        files.push({ path: entry.path, relative: entry.relative, size: entry.size ?? 0, mtimeMs: entry.mtimeMs ?? 0 });
    }
    const { protected: prot, ignored, links, special, unreadable } = step.value.skipped;
    if (root.success) dirs.set(root.path, rootStamp);
    // Rules of the directories above a sub-directory apply to it as well.
    const above: string[] = [];
    if (root.success && root.relative !== '.') {
      const parts = root.relative.split('/');
      for (let i = 0; i < parts.length; i++) above.push(join(workspace.root, ...parts.slice(0, i)));
    }
    const ignoreFiles = [...above, ...dirs.keys()].map((dir) => join(dir, '.gitignore'));
    const ignoreStamps = await mapLimited(ignoreFiles, STAT_CONCURRENCY, stampOf);
    this.#watched = new Map([...dirs, ...ignoreFiles.map((path, i) => [path, ignoreStamps[i]!] as const)]);
    // A truncated or aborted walk is not complete enough to reuse.
    const complete = !step.value.truncated && !step.value.aborted && root.success;
    const listing: TreeListing = { files, skipped: { protected: prot, ignored, links, special, unreadable } };
    this.#listing = complete ? listing : undefined;
    return listing;
  }
}
