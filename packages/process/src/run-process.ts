import type { ProcessFailure } from './failure.js';
import { prepareCommand } from './internal/prepare.js';
import { supervise } from './internal/supervise.js';
import { PROCESS_LIMITS } from './limits.js';
import type { ProcessResult } from './process-result.js';
import type { RunOptions } from './run-options.js';

/** What {@link runProcess} resolves to; it never rejects for an expected problem (only for a bad limit option). */
export type RunProcessOutcome = ProcessResult | ProcessFailure;

/**
 * Runs a program without a shell, with a contained cwd, a filtered environment, capped output and a hard stop, so a
 * command chosen by a model can neither hang the caller nor flood its memory nor leave processes behind.
 */
export async function runProcess(argv: readonly string[], options: RunOptions = {}): Promise<RunProcessOutcome> {
  const checked = await prepareCommand(argv, options);
  if (!('program' in checked)) return checked;
  const prepared = options.wrap ? options.wrap(checked) : checked;
  if (!('program' in prepared)) return prepared;
  // Core's limits mechanism: a bad value throws a ConfigurationError naming it; the timeout follows the one timeout
  // rule (non-positive or non-finite means the default), capped at the one timer ceiling.
  const limits = PROCESS_LIMITS.resolve({
    timeoutMs: options.timeoutMs,
    maxOutputBytes: options.maxOutputBytes,
    drainMs: options.drainMs,
    killGraceMs: options.killGraceMs,
    reapWaitMs: options.reapWaitMs,
  });
  return supervise({
    ...prepared,
    timeoutMs: limits.timeoutMs,
    maxOutputBytes: limits.maxOutputBytes,
    drainMs: limits.drainMs,
    killGraceMs: limits.killGraceMs,
    reapWaitMs: limits.reapWaitMs,
    signal: options.signal,
    onStdout: options.onStdout,
    onStderr: options.onStderr,
    stderrFd: options.stderrFd,
  });
}
