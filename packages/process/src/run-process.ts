import type { ProcessFailure } from './failure.js';
import { prepareCommand } from './internal/prepare.js';
import { supervise } from './internal/supervise.js';
import { DEFAULT_PROCESS_LIMITS, MAX_TIMER_MS } from './limits.js';
import type { ProcessResult } from './process-result.js';

/** How to run one command; every limit falls back to {@link DEFAULT_PROCESS_LIMITS}. */
export interface RunOptions {
  /** Working directory, absolute or relative to `workspaceRoot`; must resolve inside it when a root is given. */
  cwd?: string;
  /** When set, `cwd` (after symlinks) must be inside this directory, and is the default cwd. */
  workspaceRoot?: string;
  /** Extra variables set as given (the caller's explicit choice: not secret-filtered). */
  env?: Record<string, string>;
  /** Names or `PREFIX*` patterns taken from `baseEnv`; defaults to `DEFAULT_ENV_ALLOWLIST`. */
  inheritEnv?: readonly string[];
  /** Source of inherited variables; defaults to `process.env`. */
  baseEnv?: Record<string, string | undefined>;
  /** Milliseconds before the process group is stopped; zero, negative or invalid means the default. */
  timeoutMs?: number;
  /** Aborting stops the process group like a timeout and returns what was captured with `aborted: true`. */
  signal?: AbortSignal;
  /** Bytes kept per stream (half head, half tail). */
  maxOutputBytes?: number;
  /** How long to wait for the pipes after the direct child exits. */
  drainMs?: number;
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** After the final SIGKILL, how long to wait for the group's processes to disappear before returning. */
  reapWaitMs?: number;
  /**
   * Sees every raw stdout chunk as it arrives (for example to abort once enough was read). The chunk is shared with
   * the capture, so read it or copy it, never modify it.
   */
  onStdout?: (chunk: Buffer) => void;
  /** Sees every raw stderr chunk as it arrives; like `onStdout`, it must not modify the chunk. */
  onStderr?: (chunk: Buffer) => void;
}

/** What {@link runProcess} resolves to; it never rejects for an expected problem. */
export type RunProcessOutcome = ProcessResult | ProcessFailure;

function nonNegative(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}

/**
 * Runs a program without a shell, with a contained cwd, a filtered environment, capped output and a hard stop, so a
 * command chosen by a model can neither hang the caller nor flood its memory nor leave processes behind.
 */
export async function runProcess(argv: readonly string[], options: RunOptions = {}): Promise<RunProcessOutcome> {
  const prepared = await prepareCommand(argv, options);
  if (!('program' in prepared)) return prepared;
  const requested = options.timeoutMs;
  const timeoutMs =
    typeof requested === 'number' && Number.isFinite(requested) && requested > 0
      ? Math.min(Math.ceil(requested), MAX_TIMER_MS)
      : DEFAULT_PROCESS_LIMITS.timeoutMs;
  return supervise({
    ...prepared,
    timeoutMs,
    maxOutputBytes: nonNegative(options.maxOutputBytes, DEFAULT_PROCESS_LIMITS.maxOutputBytes),
    drainMs: nonNegative(options.drainMs, DEFAULT_PROCESS_LIMITS.drainMs),
    killGraceMs: nonNegative(options.killGraceMs, DEFAULT_PROCESS_LIMITS.killGraceMs),
    reapWaitMs: nonNegative(options.reapWaitMs, DEFAULT_PROCESS_LIMITS.reapWaitMs),
    signal: options.signal,
    onStdout: options.onStdout,
    onStderr: options.onStderr,
  });
}
