/** Every limit of `@bough/process`; each one can be overridden through {@link RunOptions} or function options. */
export const DEFAULT_PROCESS_LIMITS = {
  /** A command that has not finished after 30 s is almost always waiting on something that never comes. */
  timeoutMs: 30_000,
  /** Five minutes covers slow builds and test suites without letting one call hold an agent for good. */
  maxTimeoutMs: 300_000,
  /** Per stream: 100 kB is several screens for a model yet far below what would crowd its context window. */
  maxOutputBytes: 100_000,
  /** After the direct child exits, pipes still held by a stray grandchild get this long before they are cut. */
  drainMs: 250,
  /** Time between SIGTERM and SIGKILL, long enough for a well-behaved program to flush and clean up. */
  killGraceMs: 2_000,
  /** Killed processes normally vanish within milliseconds; this bounds the wait for one stuck in the kernel. */
  reapWaitMs: 1_000,
  /**
   * Directory entries the OS sandbox looks at to find protected files to hide (before a command and after it); a
   * workspace with more entries is only partly covered and the result says so. 100 000 covers a large repository
   * with its dependencies in well under a second.
   */
  sandboxScanEntries: 100_000,
} as const;
