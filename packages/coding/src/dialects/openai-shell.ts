import type { ToolRegistry } from '@bough/core';
import { notRunEntry, runCommand } from './command-output.js';
import type { DialectCallOptions } from './dialect-call.js';

/** One call of OpenAI's `shell` tool, as the AI SDK hands it over (`action.commands` run in order). */
export interface OpenAiShellInput {
  readonly action: {
    readonly commands: readonly string[];
    readonly timeoutMs?: number;
    readonly maxOutputLength?: number;
  };
}

/** The answer the `shell` tool expects: one entry per command, with its streams and how it ended. */
export interface OpenAiShellOutput {
  readonly output: {
    readonly stdout: string;
    readonly stderr: string;
    readonly outcome: { readonly type: 'timeout' } | { readonly type: 'exit'; readonly exitCode: number };
  }[];
}

function capped(text: string, max: number | undefined): string {
  return max !== undefined && max > 0 && text.length > max ? text.slice(0, max) : text;
}

/**
 * Runs each command of an OpenAI `shell` call through the registry's `bash` tool (one program per command, no shell;
 * policy and OS sandbox apply), in order, and answers in the tool's documented output shape. Never throws: a call
 * with no command to run, and each command bough refuses, answer `Error: …` on stderr with exit status 126, the
 * wording the other dialects give the same failures (MCP shows the Codex `shell` the same text as an error).
 */
export async function executeOpenAiShell(
  registry: ToolRegistry,
  input: OpenAiShellInput,
  options: DialectCallOptions = {},
): Promise<OpenAiShellOutput> {
  const commands = Array.isArray(input?.action?.commands) ? input.action.commands : [];
  const max = input?.action?.maxOutputLength;
  const commandTimeoutMs = input?.action?.timeoutMs;
  if (commands.length === 0)
    return { output: [notRunEntry('the call has no command to run: `action.commands` is empty.')] };
  const output: OpenAiShellOutput['output'] = [];
  for (const [index, command] of commands.entries()) {
    const outcome = await runCommand(
      registry,
      command,
      { ...options, ...(commandTimeoutMs !== undefined ? { commandTimeoutMs } : {}) },
      String(index),
    );
    if (outcome.refused) {
      output.push(notRunEntry(outcome.refused.error));
      continue;
    }
    output.push({
      stdout: capped(outcome.stdout, max),
      stderr: capped(outcome.stderr, max),
      outcome: outcome.timedOut ? { type: 'timeout' } : { type: 'exit', exitCode: outcome.exitCode ?? 1 },
    });
  }
  return { output };
}
