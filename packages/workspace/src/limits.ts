/** Every limit of the workspace package; each one can be overridden through `WorkspaceOptions.limits`. */
export interface WorkspaceLimits {
  /** Longest accepted path string, in characters. */
  readonly maxPathLength: number;
  /** Longest accepted single path component, in UTF-8 bytes. */
  readonly maxNameBytes: number;
  /** Entries a single walk yields before it stops and reports truncation. */
  readonly maxWalkEntries: number;
  /** Directory depth below the walk's start at which a walk stops descending. */
  readonly maxWalkDepth: number;
  /** Largest `.gitignore` file a walk will read. */
  readonly maxIgnoreFileBytes: number;
  /** Largest payload `writeFile` accepts. */
  readonly maxWriteBytes: number;
  /** Attempts `openRead` makes when the file changes between the check and the open. */
  readonly openAttempts: number;
  /** Bytes a piecewise replacement writes between background data syncs, so its final fsync only flushes the tail. */
  readonly replaceSyncStepBytes: number;
}

/** Defaults chosen so a real repository works and a hostile one cannot exhaust memory or time. */
export const DEFAULT_WORKSPACE_LIMITS: WorkspaceLimits = Object.freeze({
  // PATH_MAX on Linux; longer strings cannot name a real file anyway.
  maxPathLength: 4096,
  // NAME_MAX on common filesystems; longer components fail in the kernel with a less helpful error.
  maxNameBytes: 255,
  // Enough for a large monorepo listing, small enough that a result stays in memory comfortably.
  maxWalkEntries: 200_000,
  // Deeper trees are almost always generated or hostile (link farms, recursion bombs).
  maxWalkDepth: 64,
  // Real ignore files are a few KB; a huge one is a denial-of-service attempt.
  maxIgnoreFileBytes: 1024 * 1024,
  // Tool writes are source files; 64 MiB is far beyond any legitimate edit.
  maxWriteBytes: 64 * 1024 * 1024,
  // A file swapped under us twice in a row is being raced on purpose; give up and report it.
  openAttempts: 3,
  // Starting writeback every 16 MiB overlaps the disk with the rest of a big replacement; small files never reach it.
  replaceSyncStepBytes: 16 * 1024 * 1024,
});

/** Merges caller overrides over the defaults, ignoring values that are not positive integers. */
export function resolveLimits(overrides: Partial<WorkspaceLimits> | undefined): WorkspaceLimits {
  const merged: Record<string, number> = { ...DEFAULT_WORKSPACE_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (key in merged && typeof value === 'number' && Number.isInteger(value) && value > 0) merged[key] = value;
  }
  return Object.freeze(merged) as unknown as WorkspaceLimits;
}
