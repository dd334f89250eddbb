import type { ToolFailure, ToolRegistry } from '@bough/core';
import { callRegistry, type DialectCallOptions } from './dialect-call.js';
import { type DialectFailure, dialectFailure } from './dialect-failure.js';
import { readThroughReader } from './shell-reads.js';

/** One command's outcome in the provider dialects' terms: how it ran, or why bough refused to run it. */
export type CommandOutcome = CommandRan | CommandRefused;

/** A command that ran: its output streams and how it ended. */
export interface CommandRan {
  readonly stdout: string;
  readonly stderr: string;
  /** The exit status; `undefined` when the command was stopped by its timeout. */
  readonly exitCode: number | undefined;
  readonly timedOut: boolean;
  readonly refused?: undefined;
}

/** A command bough refused to run (a shell operator, a policy denial, a missing program): why. */
export interface CommandRefused {
  readonly refused: ToolFailure;
}

/**
 * Exit status reported for a command that could not run: 126 is what a POSIX shell reports for a command it found but
 * could not run.
 */
const REFUSED_EXIT_CODE = 126;

/** A shell tool's entry for a command that did not run: the failure on stderr, with the exit status of one that could not run. */
export interface NotRunEntry {
  readonly stdout: '';
  readonly stderr: string;
  readonly outcome: { readonly type: 'exit'; readonly exitCode: number };
}

/** The words every dialect and front door give a refused command or a call with nothing to run. */
function refusalText(error: string): string {
  return `Error: ${error}`;
}

/** A refused command as a failed dialect call: `Error: …` with the refusal's code (bash, shell and gemini tools). */
export function refusedCall(failure: ToolFailure): DialectFailure {
  return dialectFailure(refusalText(failure.error), failure.error_code);
}

/**
 * A command that did not run as an entry of OpenAI's `shell` tool, the only failure form it defines (its output schema
 * has no error field, and the Responses API takes nothing but a `shell_call_output` for a shell call): the same
 * `Error: …` words on stderr, with exit status 126.
 */
export function notRunEntry(error: string): NotRunEntry {
  return { stdout: '', stderr: `${refusalText(error)}\n`, outcome: { type: 'exit', exitCode: REFUSED_EXIT_CODE } };
}

/**
 * Runs one command through the registry's `bash` tool (one program, no shell; the toolkit's policy and the OS sandbox
 * apply) and reports it as a shell would; a command bough refused is named in `refused` (each dialect reports it with
 * {@link refusedCall} or {@link notRunEntry}).
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
  if (!ran.ok) return { refused: ran.failure };
  const value = ran.value;
  const timedOut = value.timed_out === true;
  return {
    stdout: typeof value.stdout === 'string' ? value.stdout : '',
    stderr: typeof value.stderr === 'string' ? value.stderr : '',
    exitCode: timedOut ? undefined : typeof value.return_code === 'number' ? value.return_code : 1,
    timedOut,
  };
}
