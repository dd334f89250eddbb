import type { ToolRegistry } from '@bough/core';
import { type CommandOutcome, type CommandRan, refusedCall, runCommand } from './command-output.js';
import type { DialectCallOptions } from './dialect-call.js';
import { type DialectFailure, dialectFailure } from './dialect-failure.js';

/** One call of Anthropic's bash tool (`bash_20250124`), as the model sends it. */
export interface AnthropicBashInput {
  readonly command?: string;
  readonly restart?: boolean;
}

/**
 * Runs one Anthropic bash tool call through the registry's `bash` tool and renders it as text: stdout, then stderr,
 * then the exit status when it is not 0. bough runs one program per call without a shell, so each call stands alone
 * and `restart` has no session to reset; it answers that the tool was restarted. Never throws: a command bough
 * refused to run, or one stopped by its timeout, is a {@link DialectFailure} (the bash tool documents both as errors);
 * a command that ran and exited non-zero is an ordinary result showing its exit status.
 */
export async function executeAnthropicBash(
  registry: ToolRegistry,
  input: AnthropicBashInput,
  options: DialectCallOptions = {},
): Promise<string | DialectFailure> {
  if (input?.restart === true) return 'tool has been restarted.';
  if (typeof input?.command !== 'string' || input.command.trim() === '') {
    return dialectFailure('Error: `command` is required.');
  }
  return commandResult(await runCommand(registry, input.command, options));
}

/** A command's outcome as the bash tool's result: its text, or a failure when it was refused or timed out. */
export function commandResult(outcome: CommandOutcome): string | DialectFailure {
  if (outcome.refused) return refusedCall(outcome.refused);
  if (outcome.timedOut) return dialectFailure(commandText(outcome), 'timed_out');
  return commandText(outcome);
}

/** A command's outcome as one text: stdout, stderr, then how it ended when that was not exit status 0. */
export function commandText(outcome: CommandRan): string {
  const parts = [outcome.stdout.replace(/\n$/, ''), outcome.stderr.replace(/\n$/, '')].filter((part) => part !== '');
  if (outcome.timedOut) parts.push('[the command timed out and was stopped]');
  else if (outcome.exitCode !== 0) parts.push(`[exit code ${outcome.exitCode}]`);
  return parts.join('\n');
}
