import { defineLimits, type LimitValues } from '@bough/core';

/**
 * Every limit of the workspace package, defined once with core's limits mechanism; each one can be overridden
 * through `WorkspaceOptions.limits`. A bad override throws a `ConfigurationError` naming the key.
 * Defaults are chosen so a real repository works and a hostile one cannot exhaust memory or time.
 */
export const WORKSPACE_LIMITS = defineLimits('workspace', {
  maxPathLength: { value: 4096, reason: 'PATH_MAX on Linux; longer strings cannot name a real file anyway' },
  maxNameBytes: {
    value: 255,
    reason: 'NAME_MAX on common filesystems; longer components fail in the kernel with a less helpful error',
  },
  maxWalkEntries: {
    value: 200_000,
    reason: 'enough for a large monorepo listing, small enough that a result stays in memory comfortably',
  },
  maxWalkDepth: {
    value: 64,
    reason: 'deeper trees are almost always generated or hostile (link farms, recursion bombs)',
  },
  maxIgnoreFileBytes: {
    value: 1024 * 1024,
    reason: 'real ignore files are a few KB; a huge one is a denial-of-service attempt',
  },
  maxWriteBytes: {
    value: 64 * 1024 * 1024,
    reason: 'tool writes are source files; 64 MiB is far beyond any legitimate edit',
  },
  openAttempts: {
    value: 3,
    reason: 'a file swapped under us twice in a row is being raced on purpose; give up and report it',
  },
  replaceSyncStepBytes: {
    value: 16 * 1024 * 1024,
    reason: 'starting writeback every 16 MiB overlaps the disk with the rest of a big replacement',
  },
});

/** The resolved workspace limits: one number per key of {@link WORKSPACE_LIMITS}. */
export type WorkspaceLimits = LimitValues<keyof typeof WORKSPACE_LIMITS.defaults>;

/** The default of every workspace limit. */
export const DEFAULT_WORKSPACE_LIMITS: WorkspaceLimits = WORKSPACE_LIMITS.defaults;

/** Validates overrides and merges them over the defaults; a bad override throws a `ConfigurationError`. */
export function resolveLimits(overrides: Partial<WorkspaceLimits> | undefined): WorkspaceLimits {
  return WORKSPACE_LIMITS.resolve(overrides);
}
