import { limitText } from '@bough/core';
import { type BashLimits, DEFAULT_BASH_LIMITS } from './limits.js';

// Lean on purpose (it is sent with every request): the rules a model must know before its first command. Each
// refusal (shell_operator, command_not_found, …) says how to rewrite the command, so the error codes are not listed.
const TEMPLATE = [
  'Run one program with arguments in the workspace; returns stdout, stderr and return_code. No',
  'shell: pipes, redirection, `&&`, `;` and `$(...)` are refused; globs, variables and `~` are not expanded. Use cwd',
  'instead of cd, `env NAME=value PROG` for variables. timeout in ms (default {defaultTimeoutMs}, max',
  '{maxTimeoutMs}). Output over {maxOutputBytes} bytes per stream keeps its head and tail. background: true starts a',
  'job for the jobs tool. For files prefer reader, search and editor. It is not a sandbox unless a result says',
  'sandboxed: true.',
].join(' ');

/** The description of a bash tool built with `limits`: every number in it is the one enforced. */
export function bashDescription(limits: BashLimits): string {
  return limitText(TEMPLATE, limits);
}

/** The model-facing description of the bash tool with the default limits: when to use it and how to recover. */
export const BASH_DESCRIPTION = bashDescription(DEFAULT_BASH_LIMITS);
