import type { PreHook } from '@bough/core';
import type { AskHandler } from '@bough/policy';
import { DEFAULT_PROTECTED, isProtectedName, type ProtectedNamePolicy } from '@bough/workspace';
import type { SourceGuardSettings } from './toolkit-build.js';

/** Where a word of a command may hold a path: path separators, assignments, quotes and shell punctuation. */
const SPLIT = /[\s/\\=:'"`;|&<>(),]+/u;

/**
 * The first part of `command` that names a protected file or folder (`cat .env`, `sh -c 'cat .bough/s.json'`,
 * `--config=.netrc`), or undefined. Words are split on separators, so a script handed to a shell is looked into too.
 * This is a heuristic for unconfined commands: a program can still build a protected name at run time.
 */
export function protectedWordOf(command: string, policy: ProtectedNamePolicy = DEFAULT_PROTECTED): string | undefined {
  return command.split(SPLIT).find((part) => part !== '' && isProtectedName(part, policy));
}

/**
 * The bash source's guard: without the OS sandbox nothing stops a command from reading a protected file, so a command
 * whose words name one is escalated (asked, or refused outright under a strict preset: `options.decision`). Inside
 * the sandbox those paths are hidden, and the command runs as the permission policy says.
 */
export function protectedCommandHook(options: SourceGuardSettings): PreHook {
  return async ({ tool, args }) => {
    if (options.sandboxed) return undefined;
    const command = (args as { command?: unknown } | undefined)?.command;
    if (typeof command !== 'string') return undefined;
    const word = protectedWordOf(command, options.protectedNames);
    if (word === undefined) return undefined;
    const what = `bash names the protected path ${JSON.stringify(word)}`;
    const unconfined = 'commands here do not run in the OS sandbox, so nothing would keep it from reading that file';
    if (options.decision === 'deny' || !options.onAsk) {
      return {
        decision: 'deny',
        reason: `Refused: ${what} and ${unconfined}. Do not read credentials or session files; work without them or ask the user.`,
      };
    }
    let answer: Awaited<ReturnType<AskHandler>>;
    try {
      answer = await options.onAsk({
        tool: tool.name,
        args,
        subject: command,
        rule: `protected path ${word}`,
        policy: 'protected names',
        opaque: false,
      });
    } catch {
      return { decision: 'deny', reason: `The approver for a command naming ${JSON.stringify(word)} failed; refused.` };
    }
    if (answer === true || answer === 'allow' || (typeof answer === 'object' && answer?.allow === true))
      return undefined;
    const reason = typeof answer === 'object' && answer?.reason ? `: ${answer.reason}` : '';
    return { decision: 'deny', reason: `The approver declined a command naming ${JSON.stringify(word)}${reason}.` };
  };
}
