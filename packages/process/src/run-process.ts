import { effectiveTimeout } from '@bough/core';
import type { ProcessFailure } from './failure.js';
import { prepareCommand } from './internal/prepare.js';
import { supervise } from './internal/supervise.js';
import { DEFAULT_PROCESS_LIMITS } from './limits.js';
import type { ProcessResult } from './process-result.js';
import type { RunOptions } from './run-options.js';

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
  const checked = await prepareCommand(argv, options);
  if (!('program' in checked)) return checked;
  const prepared = options.wrap ? options.wrap(checked) : checked;
  if (!('program' in prepared)) return prepared;
  // The one timeout rule of every bough package (core's effectiveTimeout), capped at the one timer ceiling.
  const timeoutMs = effectiveTimeout(options.timeoutMs, DEFAULT_PROCESS_LIMITS.timeoutMs);
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
    stderrFd: options.stderrFd,
  });
}
