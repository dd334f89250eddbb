import type { ToolFailure, ToolRegistry } from '@bough/core';
import { callRegistry, type DialectCallOptions } from './dialect-call.js';
import { readThroughReader } from './shell-reads.js';

/** One command's outcome in the provider dialects' terms: its output streams and how it ended. */
export interface CommandOutcome {
  readonly stdout: string;
  readonly stderr: string;
  /** The exit status; `undefined` when the command was stopped by its timeout. */
  readonly exitCode: number | undefined;
  readonly timedOut: boolean;
  /** Set when bough refused to run the command (a shell operator, a policy denial, a missing program): why. */
  readonly refused?: ToolFailure;
}

/**
 * Exit status reported for a command bough refused to run (a shell operator, a policy denial, a missing program):
 * 126 is what a POSIX shell reports for a command it found but could not run.
 */
export const REFUSED_EXIT_CODE = 126;

/**
 * Runs one command through the registry's `bash` tool (one program, no shell; the toolkit's policy and the OS sandbox
 * apply) and reports it as a shell would: a refusal becomes the refusal text on stderr with exit status 126, and is
 * named in `refused` for the dialects that report it as a failed call.
 */
export async function runCommand(
  registry: ToolRegistry,
  command: string,
  options: DialectCallOptions & { readonly cwd?: string; readonly commandTimeoutMs?: number },
  step = '',
): Promise<CommandOutcome> {
  const printed = await readThroughReader(registry, command, options, step);
  if (printed !== undefined) return { stdout: printed, stderr: '', exitCode: 0, timedOut: false };
  const args = {
    command,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.commandTimeoutMs !== undefined ? { timeout: options.commandTimeoutMs } : {}),
  };
  const ran = await callRegistry(registry, 'bash', args, options, step);
  if (!ran.ok) {
    const stderr = `${ran.failure.error}\n`;
    return { stdout: '', stderr, exitCode: REFUSED_EXIT_CODE, timedOut: false, refused: ran.failure };
  }
  const value = ran.value;
  const timedOut = value.timed_out === true;
  return {
    stdout: typeof value.stdout === 'string' ? value.stdout : '',
    stderr: typeof value.stderr === 'string' ? value.stderr : '',
    exitCode: timedOut ? undefined : typeof value.return_code === 'number' ? value.return_code : 1,
    timedOut,
  };
}
