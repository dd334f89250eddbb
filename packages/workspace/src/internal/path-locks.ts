/**
 * Per-path locks that serialise every mutation of one real path in this process: a write, a replacement, a move (both
 * ends) and each file of a transaction hold the lock of their target from the last check of what is there until the
 * new content is in place. Without it two writers can both check the old content, both pass, and the second rename
 * silently drops the first one's change (a lost update).
 *
 * Why a registry shared by the whole process rather than a field of a Workspace: every Workspace object opened on the
 * same root (one per toolkit, per MCP session, per editor built with a root string) must meet in the same lock, and
 * they share nothing but the real paths they resolve to. The registry lives on `globalThis` under a `Symbol.for` key
 * so that two copies of this package loaded side by side (a bundled tool and the app) still share it. Entries exist
 * only while someone holds or waits for a path, so the map never grows with the number of files touched.
 *
 * Our own code rather than a library: what is needed is a FIFO mutex per string key, acquired in a canonical order
 * for several keys, a dozen lines on top of promises; the maintained packages (async-mutex, proper-lockfile) either
 * lock one object or lock files across processes with lock files on disk, which is not what this is for.
 */
type Registry = Map<string, Promise<void>>;

const KEY = Symbol.for('bough.workspace.path-locks');
const holder = globalThis as { [KEY]?: Registry };
const tails: Registry = holder[KEY] ?? new Map();
holder[KEY] = tails;

/** Waits for `key`'s lock; resolves to the function that releases it (call it exactly once). */
async function acquire(key: string): Promise<() => void> {
  const before = tails.get(key);
  let release!: () => void;
  const mine = new Promise<void>((done) => {
    release = done;
  });
  const tail = before ? before.then(() => mine) : mine;
  tails.set(key, tail);
  if (before) await before;
  return () => {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  };
}

/**
 * Takes the locks of every given real path (duplicates once, in sorted order, so two callers wanting overlapping sets
 * can never wait on each other in a cycle) and resolves to the function that releases them all.
 */
export async function lockPaths(paths: readonly string[]): Promise<() => void> {
  const keys = [...new Set(paths)].sort();
  const releases: Array<() => void> = [];
  for (const key of keys) releases.push(await acquire(key));
  return () => {
    for (const release of releases.reverse()) release();
  };
}

/** Runs `work` while holding the locks of `paths` (see {@link lockPaths}); they are released however it ends. */
export async function withPathLocks<T>(paths: readonly string[], work: () => Promise<T> | T): Promise<T> {
  const release = await lockPaths(paths);
  try {
    return await work();
  } finally {
    release();
  }
}

/** How many paths are locked or waited for right now (tests check that nothing is left behind). */
export function lockedPathCount(): number {
  return tails.size;
}
