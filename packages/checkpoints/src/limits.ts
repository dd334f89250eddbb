import { defineLimits, type LimitValues } from '@bough/core';

/**
 * Every limit of the checkpoint store, defined once with core's limits mechanism: each can be overridden through
 * `limits` of `createCheckpointStore`, a bad override throws a `ConfigurationError` naming the key, and the store
 * resolves them once when it is created.
 */
export const CHECKPOINTS_LIMITS = defineLimits('checkpoints', {
  maxFileBytes: {
    value: 10_485_760,
    reason:
      'files larger than this (10 MiB) are not stored and never touched by a restore: build outputs and media would grow the store fast',
  },
  listDefault: {
    value: 20,
    reason: 'checkpoints a list answer shows when the request gives no limit: the recent calls fit on one screen',
  },
  listMax: {
    value: 500,
    reason: 'most checkpoints one list answer may show, so a long session cannot flood a context',
  },
  filesPerEntry: {
    value: 50,
    reason: 'changed files named per checkpoint or restore answer; the count beyond it is still given',
  },
  maxDiffBytes: {
    value: 100_000,
    reason: 'bytes of unified diff one answer returns; a larger diff is cut with a marker (ask for paths)',
  },
  maxRequestChars: {
    value: 2_000,
    reason: 'characters of a tool request kept with its checkpoint: enough to recognise the call, never a whole file',
  },
  gitTimeoutMs: {
    value: 120_000,
    rule: 'timeout',
    reason: 'longest one git step may run: a first snapshot of a large tree hashes every file once',
  },
  watchMaxDirs: {
    value: 10_000,
    rule: 'non_negative_integer',
    reason:
      'folders watched for changes between checkpoints (one inotify watch each, Linux only); past it every checkpoint runs a status check, and 0 turns the watch off',
  },
  lockWaitMs: {
    value: 10_000,
    rule: 'timeout',
    reason: 'how long a snapshot waits for another process using the same store before it answers store_busy',
  },
});

/** The resolved checkpoint limits: one number per key of {@link CHECKPOINTS_LIMITS}. */
export type CheckpointsLimits = LimitValues<keyof typeof CHECKPOINTS_LIMITS.defaults>;

/** The default of every checkpoint limit. */
export const DEFAULT_CHECKPOINTS_LIMITS: CheckpointsLimits = CHECKPOINTS_LIMITS.defaults;

/** Validates overrides and merges them over the defaults (a bad one throws); resolved limits pass through. */
export function resolveCheckpointsLimits(overrides: Partial<CheckpointsLimits> | undefined): CheckpointsLimits {
  return CHECKPOINTS_LIMITS.resolve(overrides);
}
