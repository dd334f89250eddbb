import { defineLimits, type LimitValues } from '@bough/core';
import { DEFAULT_PROCESS_LIMITS } from '@bough/process';

/**
 * Every limit of the bash tool, defined once with core's limits mechanism: each can be overridden through
 * `BashOptions.limits`, a bad override throws a `ConfigurationError` naming the key, and the tools resolve them
 * once when they are built. Defaults are shared with `@bough/process`, so the standalone tool and the coding
 * toolkit apply one rule.
 */
export const BASH_LIMITS = defineLimits('bash', {
  defaultTimeoutMs: {
    value: DEFAULT_PROCESS_LIMITS.timeoutMs,
    rule: 'timeout',
    reason:
      'timeout used when a request gives none (or a non-positive one): a command running 30 s is usually waiting for input',
  },
  maxTimeoutMs: {
    value: DEFAULT_PROCESS_LIMITS.maxTimeoutMs,
    rule: 'timeout',
    reason:
      'largest timeout a request may ask for: a slow build or test run fits without holding the agent indefinitely',
  },
  maxOutputBytes: {
    value: DEFAULT_PROCESS_LIMITS.maxOutputBytes,
    reason: 'bytes kept per stream (head and tail): several screens of text yet most of a context stays free',
  },
  drainMs: {
    value: DEFAULT_PROCESS_LIMITS.drainMs,
    rule: 'non_negative',
    reason: 'how long pipes held by a stray grandchild may stay open after the command exits',
  },
  killGraceMs: {
    value: DEFAULT_PROCESS_LIMITS.killGraceMs,
    rule: 'non_negative',
    reason: 'pause between SIGTERM and SIGKILL, so a well-behaved program can flush and clean up',
  },
  maxCommandLength: {
    value: 32_768,
    reason: 'longest accepted command string; real commands are short and 32 KiB is far beyond any legitimate one',
  },
  reapWaitMs: {
    value: DEFAULT_PROCESS_LIMITS.reapWaitMs,
    rule: 'non_negative',
    reason: 'after the final SIGKILL, the longest wait for the process group to disappear',
  },
  maxJobs: {
    value: 8,
    reason: 'background jobs running at once per tool instance; a dev server, a watcher and a test run fit easily',
  },
  jobLifetimeMs: {
    value: 3_600_000,
    rule: 'timeout',
    reason: 'longest a background job may run; a job older than an hour was most likely forgotten',
  },
  jobOutputBytes: {
    value: 1_048_576,
    reason:
      'output kept per stream of a job: the recent history of a chatty server without letting a flood grow the host',
  },
  jobReadBytes: {
    value: DEFAULT_PROCESS_LIMITS.maxOutputBytes,
    reason: 'bytes per stream one jobs output call returns by default: no more context than a foreground call',
  },
  jobWaitMaxMs: {
    value: DEFAULT_PROCESS_LIMITS.maxTimeoutMs,
    rule: 'timeout',
    reason: 'longest one jobs wait blocks; the model can wait again',
  },
  sandboxScanEntries: {
    value: DEFAULT_PROCESS_LIMITS.sandboxScanEntries,
    reason: 'entries the OS sandbox scans for protected files to hide; beyond it the result says coverage is partial',
  },
});

/** The resolved bash limits: one number per key of {@link BASH_LIMITS}. */
export type BashLimits = LimitValues<keyof typeof BASH_LIMITS.defaults>;

/** The default of every bash limit. */
export const DEFAULT_BASH_LIMITS: BashLimits = BASH_LIMITS.defaults;

/** Validates overrides and merges them over the defaults (a bad one throws); resolved limits pass through as they are. */
export function resolveBashLimits(overrides: Partial<BashLimits> | undefined): BashLimits {
  return BASH_LIMITS.resolve(overrides);
}
