import { limitText } from '@bough/core';
import { type BashLimits, DEFAULT_BASH_LIMITS } from './limits.js';

const TEMPLATE = [
  'Run ONE program with arguments in the workspace and get its stdout, stderr and exit status.',
  'Use it for builds, tests, git, package scripts and other programs. To read, search or edit files, prefer the',
  'reader, search and editor tools: they are faster and their output is shaped for you.',
  '',
  'There is no shell. The command is split into words with POSIX quoting and run directly, so:',
  '- pipes, redirection, `&&`, `||`, `;`, `&`, subshells and `$(...)` are refused. Run commands one per call;',
  '  set `cwd` instead of `cd DIR && ...`; use `head -n 20 FILE` or `grep -m 20` instead of a pipe; use',
  '  `PROG --output FILE` instead of `PROG > FILE`.',
  '- nothing is expanded: globs (`*.ts`), variables (`$HOME`) and `~` reach the program as written. Quote',
  '  characters you mean literally: `grep -E "a|b" file` works. Set variables with `env NAME=value PROG ...`.',
  '- stdin is empty, pagers are off and git never prompts; interactive programs will not wait for input.',
  '',
  'Limits: `timeout` in ms (default {defaultTimeoutMs}, max {maxTimeoutMs}; 0 or negative means the default). On',
  'timeout the command and everything it started are stopped and you get what was captured so far with timed_out:',
  'true. Output over {maxOutputBytes} bytes per stream keeps its head and tail around a marker. Processes it leaves',
  'behind do not survive the call.',
  '',
  'Long-running commands (dev servers, watchers, long test runs): pass background: true to start a job and get its',
  'job_id at once; read its output, wait for it or kill it with the jobs tool. A job runs at most {jobLifetimeMs} ms',
  '(its `timeout`, when given, can only shorten that) and ends with this session.',
  '',
  'Errors: shell_operator / malformed_command — rewrite as one plain command as the message says;',
  'empty_command — send a program name; command_not_found — check the name or call it by its path;',
  'outside_workspace / not_found / not_a_directory / protected_path — pick a cwd inside the workspace;',
  'too_many_jobs — kill or wait for a background job first; invalid_request — fix the fields named in the message.',
  '',
  'Results say sandboxed: true when the OS sandbox confines the command (writes only in the workspace, no network,',
  'protected files unreadable, nothing survives). Without it this is not a sandbox: the program runs with your user',
  'rights, and interpreters (python -c, node -e), `find -exec` or `env X=1 sh ...` can do anything you can.',
  'sandbox_unavailable / sandbox_hidden_program — the sandbox cannot run it; follow the message.',
].join('\n');

/** The description of a bash tool built with `limits`: every number in it is the one enforced. */
export function bashDescription(limits: BashLimits): string {
  return limitText(TEMPLATE, limits);
}

/** The model-facing description of the bash tool with the default limits: when to use it and how to recover. */
export const BASH_DESCRIPTION = bashDescription(DEFAULT_BASH_LIMITS);
