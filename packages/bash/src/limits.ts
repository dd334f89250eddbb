import { DEFAULT_PROCESS_LIMITS } from '@bough/process';

/** Every limit of the bash tool; each can be overridden through `BashOptions.limits`. */
export interface BashLimits {
  /** Timeout used when a request gives none (or a non-positive one). */
  readonly defaultTimeoutMs: number;
  /** Largest timeout a request may ask for; larger requests are lowered to this and told so. */
  readonly maxTimeoutMs: number;
  /** Bytes kept per stream (head and tail); the middle of a flood is dropped with a marker. */
  readonly maxOutputBytes: number;
  /** How long pipes held by a stray grandchild may stay open after the command itself exits. */
  readonly drainMs: number;
  /** Pause between SIGTERM and SIGKILL when a command is stopped. */
  readonly killGraceMs: number;
  /** Longest accepted command string, in characters. */
  readonly maxCommandLength: number;
  /** After the final SIGKILL, longest wait for the command's process group to disappear before the call returns. */
  readonly reapWaitMs: number;
  /** Background jobs one tool instance may have running at once; one more is refused with `too_many_jobs`. */
  readonly maxJobs: number;
  /** Longest a background job may run before it is stopped (status `timed_out`). */
  readonly jobLifetimeMs: number;
  /** Bytes of output kept per stream of a job; older bytes are dropped and the next read says how many. */
  readonly jobOutputBytes: number;
  /** Bytes per stream one `jobs output` call returns when it gives no `max_bytes` (head and tail beyond that). */
  readonly jobReadBytes: number;
  /** Longest `jobs wait` may block; larger timeouts are lowered to this. */
  readonly jobWaitMaxMs: number;
  /** Entries the OS sandbox looks at to find protected files to hide; beyond it the result says coverage is partial. */
  readonly sandboxScanEntries: number;
}

/** Defaults shared with `@bough/process`, so the standalone tool and the coding toolkit apply one rule. */
export const DEFAULT_BASH_LIMITS: BashLimits = Object.freeze({
  // Most commands finish in seconds; one that runs 30 s is usually waiting for input that never comes.
  defaultTimeoutMs: DEFAULT_PROCESS_LIMITS.timeoutMs,
  // Five minutes fits a slow build or test run without letting one call hold the agent indefinitely.
  maxTimeoutMs: DEFAULT_PROCESS_LIMITS.maxTimeoutMs,
  // 100 kB per stream is several screens of text yet leaves most of a model's context free.
  maxOutputBytes: DEFAULT_PROCESS_LIMITS.maxOutputBytes,
  // A quarter second lets buffered output arrive without letting a background child hang the call.
  drainMs: DEFAULT_PROCESS_LIMITS.drainMs,
  // Two seconds lets a well-behaved program flush and clean up before it is killed.
  killGraceMs: DEFAULT_PROCESS_LIMITS.killGraceMs,
  // Real commands are short; 32 KiB is far beyond any legitimate single command line.
  maxCommandLength: 32_768,
  // Killed processes vanish within milliseconds; this only bounds the wait for one stuck in the kernel.
  reapWaitMs: DEFAULT_PROCESS_LIMITS.reapWaitMs,
  // A dev server, a watcher and a test run fit several times over; more usually means jobs were forgotten.
  maxJobs: 8,
  // An hour covers a long test run or a dev session; a job older than that was most likely forgotten.
  jobLifetimeMs: 3_600_000,
  // 1 MiB per stream holds the recent history of a chatty server without letting a flood grow the host.
  jobOutputBytes: 1_048_576,
  // The same budget as one foreground call, so reading a job's output costs no more context than running it.
  jobReadBytes: DEFAULT_PROCESS_LIMITS.maxOutputBytes,
  // A wait as long as the longest foreground call; the model can wait again.
  jobWaitMaxMs: DEFAULT_PROCESS_LIMITS.maxTimeoutMs,
  // Shared with @bough/process: a large repository with its dependencies is scanned in well under a second.
  sandboxScanEntries: DEFAULT_PROCESS_LIMITS.sandboxScanEntries,
});

/** Merges caller overrides over the defaults, keeping only positive finite numbers. */
export function resolveBashLimits(overrides: Partial<BashLimits> | undefined): BashLimits {
  const merged: Record<string, number> = { ...DEFAULT_BASH_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (key in merged && typeof value === 'number' && Number.isFinite(value) && value > 0) merged[key] = value;
  }
  return Object.freeze(merged) as unknown as BashLimits;
}
