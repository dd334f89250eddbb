/** The outcome of a process that ran, whatever its exit code; wire names follow the ADR. */
export interface ProcessResult {
  readonly success: true;
  readonly stdout: string;
  readonly stderr: string;
  /** Exit code, or null when the process ended by a signal. */
  readonly return_code: number | null;
  /** Name of the signal that ended the process, if any. */
  readonly signal: string | null;
  readonly timed_out: boolean;
  readonly aborted: boolean;
  readonly stdout_truncated: boolean;
  readonly stderr_truncated: boolean;
  /** Total bytes the stream produced, including any left out of `stdout`. */
  readonly stdout_bytes: number;
  readonly stderr_bytes: number;
  /** True when the stream contained NUL bytes (decoded text is then lossy). */
  readonly stdout_binary: boolean;
  readonly stderr_binary: boolean;
  readonly duration_ms: number;
  /** The timeout that was applied. */
  readonly timeout_ms: number;
}
