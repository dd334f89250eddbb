import { defineLimits, type LimitValues } from '@bough/core';

/**
 * Every limit of `@bough/process`, defined once with core's limits mechanism; each one can be overridden through
 * {@link RunOptions} or function options, and a bad override throws a `ConfigurationError` naming the key.
 */
export const PROCESS_LIMITS = defineLimits('process', {
  timeoutMs: {
    value: 30_000,
    rule: 'timeout',
    reason: 'a command that has not finished after 30 s is almost always waiting on something that never comes',
  },
  maxTimeoutMs: {
    value: 300_000,
    rule: 'timeout',
    reason: 'five minutes covers slow builds and test suites without letting one call hold an agent for good',
  },
  maxOutputBytes: {
    value: 100_000,
    rule: 'non_negative_integer',
    reason: 'per stream: several screens for a model yet far below what would crowd its context window',
  },
  drainMs: {
    value: 250,
    rule: 'non_negative',
    reason: 'after the direct child exits, pipes still held by a stray grandchild get this long before they are cut',
  },
  killGraceMs: {
    value: 2_000,
    rule: 'non_negative',
    reason: 'time between SIGTERM and SIGKILL, long enough for a well-behaved program to flush and clean up',
  },
  reapWaitMs: {
    value: 1_000,
    rule: 'non_negative',
    reason: 'killed processes normally vanish within milliseconds; this bounds the wait for one stuck in the kernel',
  },
  sandboxScanEntries: {
    value: 100_000,
    reason:
      'directory entries the OS sandbox looks at to find protected files to hide; 100 000 covers a large repository ' +
      'with its dependencies in well under a second (a larger workspace is only partly covered and the result says so)',
  },
});

/** The resolved process limits: one number per key of {@link PROCESS_LIMITS}. */
export type ProcessLimits = LimitValues<keyof typeof PROCESS_LIMITS.defaults>;

/** The default of every process limit. */
export const DEFAULT_PROCESS_LIMITS: ProcessLimits = PROCESS_LIMITS.defaults;
