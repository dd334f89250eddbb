import { failure, type ToolFailure } from '@bough/core';
import { type ProcessFailure, type RunProcessOutcome, runProcess } from '@bough/process';

/** How to run ripgrep for one search. */
export interface RgRunOptions {
  readonly rgPath: string;
  readonly args: readonly string[];
  /** Absolute directory ripgrep runs in (already checked by the workspace). */
  readonly cwd: string;
  readonly workspaceRoot: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Receives every stdout chunk; call `stop()` once enough was read and ripgrep is killed. */
  readonly onStdout: (chunk: Buffer, stop: () => void) => void;
  /** Receives every stderr chunk (ripgrep's errors and, with `--debug`, its log of skipped files). */
  readonly onStderr?: (chunk: Buffer) => void;
}

/** The process outcome plus whether this package stopped ripgrep on purpose. */
export interface RgRun {
  readonly outcome: RunProcessOutcome;
  readonly stoppedEarly: boolean;
}

/** Runs ripgrep under the process rules with an early-stop switch tied to the caller's abort signal. */
export async function runRg(options: RgRunOptions): Promise<RgRun> {
  const stopper = new AbortController();
  const signal = options.signal ? AbortSignal.any([stopper.signal, options.signal]) : stopper.signal;
  const stop = () => stopper.abort();
  const outcome = await runProcess([options.rgPath, ...options.args], {
    cwd: options.cwd,
    workspaceRoot: options.workspaceRoot,
    timeoutMs: options.timeoutMs,
    signal,
    // stdout is consumed as a stream; the captured copy is only a fallback, so keep it small.
    maxOutputBytes: 4096,
    killGraceMs: 500,
    onStdout: (chunk) => {
      if (!stopper.signal.aborted) options.onStdout(chunk, stop);
    },
    ...(options.onStderr ? { onStderr: options.onStderr } : {}),
  });
  return { outcome, stoppedEarly: stopper.signal.aborted && !(options.signal?.aborted ?? false) };
}

/** Loads the ripgrep binary path lazily, so importing this package never touches the platform binary. */
export async function loadRgPath(override: string | undefined): Promise<string | ToolFailure> {
  if (override) return override;
  try {
    const mod = (await import('@vscode/ripgrep')) as { rgPath: string };
    return mod.rgPath;
  } catch {
    return failure(
      'search_unavailable',
      'The ripgrep binary for this platform is not installed, so search cannot run. Reinstall @vscode/ripgrep.',
    );
  }
}

/**
 * The failure to return when ripgrep did not run: a binary that is missing or cannot be executed is
 * `search_unavailable` (the set-up is broken, not the request); anything else (a refused cwd, an abort) passes through.
 */
export function rgFailure(outcome: ProcessFailure): ToolFailure {
  if (outcome.error_code === 'command_not_found' || outcome.error_code === 'spawn_failed') {
    return failure(
      'search_unavailable',
      `The ripgrep binary could not be started, so search cannot run (${outcome.error_code}). Reinstall @vscode/ripgrep or fix the configured rgPath.`,
    );
  }
  return failure(outcome.error_code, outcome.error);
}
