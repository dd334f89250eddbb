import type { PreHook, PreHookResult } from '@bough/core';
import { globMatch } from './internal/glob-match.js';
import { type PermissionLimits, type PermissionSubjectDescriber, permissionSubject } from './permission-subject.js';

export type { PermissionLimits } from './permission-subject.js';

/** What a permission rule decides for a call. */
export type PermissionDecision = 'allow' | 'deny' | 'ask';

/** Glob patterns by tool name ('*' = every tool), matched against the call's subject string (see README). */
export type PermissionRules = Readonly<Record<string, readonly string[]>>;

/** A permission policy: rules are consulted deny → allow → ask; a call no rule matches is denied. */
export interface PermissionPolicy {
  readonly name?: string;
  readonly deny?: PermissionRules;
  readonly allow?: PermissionRules;
  readonly ask?: PermissionRules;
  /**
   * Tools ('*' = every tool) whose calls are allowed without asking when they will run inside the OS sandbox; deny
   * rules still decide first, and a script the deny rules could not see into still asks.
   */
  readonly allowSandboxed?: readonly string[];
}

/** Names of the built-in presets. */
export type PermissionPresetName = 'allow_all' | 'deny_all' | 'read_only' | 'safe';

const READ_TOOLS = ['reader', 'search', 'context', 'code_check', 'code_nav', 'ast_search'] as const;
const all = (names: readonly string[]): PermissionRules => Object.fromEntries(names.map((name) => [name, ['*']]));

/** The four closed presets a caller or a subagent request can name. */
export const PERMISSION_PRESETS: Readonly<Record<PermissionPresetName, PermissionPolicy>> = Object.freeze({
  allow_all: Object.freeze({ name: 'allow_all', allow: { '*': ['*'] } }),
  deny_all: Object.freeze({ name: 'deny_all', deny: { '*': ['*'] } }),
  read_only: Object.freeze({ name: 'read_only', allow: all(READ_TOOLS), deny: { editor: ['*'], bash: ['*'] } }),
  // safe: reads, searches, navigation and diagnostics run freely; every change (editor writes, edits and patches)
  // and every command asks, except a command that will run inside the OS sandbox (bubblewrap actually in effect);
  // plainly destructive commands are refused outright. jobs only sees and stops jobs this branch started.
  safe: Object.freeze({
    name: 'safe',
    allow: all([...READ_TOOLS, 'jobs']),
    allowSandboxed: Object.freeze(['bash']),
    deny: { bash: ['rm *', 'rm', 'sudo *', 'chmod *', 'kill *', 'mkfs *', 'mkfs.*', 'dd *', 'git push*'] },
    ask: { editor: ['*'], bash: ['*'] },
  }),
});

/** How permissive each preset is, lowest first; a subagent may not be given more than its parent has. */
export const PRESET_RANK: Readonly<Record<PermissionPresetName, number>> = {
  deny_all: 0,
  read_only: 1,
  safe: 2,
  allow_all: 3,
};

/** True for a preset name. */
export function isPresetName(value: unknown): value is PermissionPresetName {
  return typeof value === 'string' && Object.hasOwn(PERMISSION_PRESETS, value);
}

/** The outcome of evaluating a policy for one call. */
export interface PermissionVerdict {
  readonly decision: PermissionDecision;
  /** The pattern that decided, or undefined for the default deny. */
  readonly rule?: string;
  /** The string the patterns were matched against. */
  readonly subject: string;
  /** Set when the call was escalated because it hands a shell a script the deny rules could not see into. */
  readonly opaque?: boolean;
  /** Set when the call was allowed because it will run inside the OS sandbox (`allowSandboxed`). */
  readonly sandboxed?: boolean;
}

/** What is known about how a call will run, beyond its arguments. */
export interface PermissionCallContext {
  /** True only when the call will run inside the OS sandbox (bubblewrap works here and the tool is set to use it). */
  readonly sandboxed?: boolean;
  /**
   * What the tool's rules are matched against: its source's describer (`ToolSource.permissionSubject`). Without it,
   * the standard describer of the tool's name (bash, editor, reader, search, subagent), else the generic one.
   */
  readonly describe?: PermissionSubjectDescriber;
}

/**
 * Evaluates a policy for one call (pure): deny rules first, then `allowSandboxed` (when `context.sandboxed`), then
 * allow, then ask, else deny. The patterns of `tool` (and of `'*'`) are matched against the call's subject, as
 * `context.describe` gives it (default: the standard describer of `tool`'s name, see `permissionSubject`).
 *
 * @param policy the rules to consult
 * @param tool the tool's model-facing name, which selects the rules
 * @param args the call's arguments
 * @param limits bounds of the bash command analysis
 * @param context how the call will run (`sandboxed`) and how it is described (`describe`)
 */
export function evaluatePermission(
  policy: PermissionPolicy,
  tool: string,
  args: unknown,
  limits?: PermissionLimits,
  context: PermissionCallContext = {},
): PermissionVerdict {
  const subject = permissionSubject(tool, args, limits, context.describe);
  const patterns = (rules: PermissionRules | undefined) => [...(rules?.[tool] ?? []), ...(rules?.['*'] ?? [])];
  for (const decision of ['deny', 'allow', 'ask'] as const) {
    // A shell script the deny rules could not see into is never allowed outright while deny rules exist:
    // it is escalated to ask (refused without an approver).
    if (decision === 'allow' && subject.opaque && patterns(policy.deny).length > 0) {
      return { decision: 'ask', subject: subject.literal, opaque: true };
    }
    const sandboxTools = policy.allowSandboxed ?? [];
    if (decision === 'allow' && context.sandboxed === true && sandboxTools.some((t) => t === tool || t === '*')) {
      return { decision: 'allow', rule: 'allowSandboxed', subject: subject.literal, sandboxed: true };
    }
    for (const pattern of patterns(policy[decision])) {
      // Deny rules also see the forms the command could run as (`/bin/rm x`, `env rm x`, `sh -c 'rm x'` → `rm x`);
      // allow and ask rules see only the literal subject, so a look-alike program cannot borrow an allow rule.
      const candidates = decision === 'deny' ? subject.forms : [subject.literal];
      if (candidates.some((candidate) => globMatch(pattern, candidate))) {
        return { decision, rule: pattern, subject: subject.literal };
      }
    }
  }
  return { decision: 'deny', subject: subject.literal };
}

/** What an `onAsk` handler is told about a call the policy wants a human (or program) to approve. */
export interface PermissionAsk {
  readonly tool: string;
  readonly args: unknown;
  readonly subject: string;
  readonly rule: string | undefined;
  readonly policy: string | undefined;
  /** True when the command hands a shell a script the deny rules could not fully check. */
  readonly opaque: boolean;
}

/** Approves (true / 'allow') or refuses (false / 'deny' / { reason }) a call the policy escalated. */
export type AskHandler = (
  ask: PermissionAsk,
) =>
  | boolean
  | 'allow'
  | 'deny'
  | { readonly allow: boolean; readonly reason?: string }
  | Promise<boolean | 'allow' | 'deny' | { readonly allow: boolean; readonly reason?: string }>;

/**
 * Turns a policy into a pre hook: deny and unanswered asks become typed `denied` failures the model can read.
 *
 * @param policy the rules to enforce
 * @param onAsk approves or refuses the calls the policy escalates; without it they are refused
 * @param limits bounds of the bash command analysis
 * @param sandboxed whether that tool's calls will run inside the OS sandbox (for `allowSandboxed`)
 * @param describe what the calls are matched against (a source's own describer); without it, the standard
 *   describer of each call's tool name, else the generic one
 */
export function permissionHook(
  policy: PermissionPolicy,
  onAsk?: AskHandler,
  limits?: PermissionLimits,
  sandboxed?: (tool: string) => boolean,
  describe?: PermissionSubjectDescriber,
): PreHook {
  const label = policy.name ? `permission policy '${policy.name}'` : 'the permission policy';
  // An allowed call (the common case) is answered synchronously, without a promise or the text a refusal needs.
  return ({ tool, args }) => {
    const verdict = evaluatePermission(policy, tool.name, args, limits, {
      sandboxed: sandboxed?.(tool.name) === true,
      ...(describe ? { describe } : {}),
    });
    if (verdict.decision === 'allow') return undefined;
    return refuseOrAsk(label, tool.name, args, verdict, policy.name, onAsk);
  };
}

/** A call the policy did not allow outright: refused, or put to the approver. */
async function refuseOrAsk(
  label: string,
  tool: string,
  args: unknown,
  verdict: ReturnType<typeof evaluatePermission>,
  policyName: string | undefined,
  onAsk: AskHandler | undefined,
): Promise<PreHookResult> {
  const what = `${tool} ${JSON.stringify(shorten(verdict.subject))}`;
  if (verdict.decision === 'deny') {
    const why = verdict.rule ? `matches the deny rule ${JSON.stringify(verdict.rule)}` : 'matches no allow rule';
    return {
      decision: 'deny',
      reason: `${label} refuses ${what}: it ${why}. Do not retry it; use another approach or ask the user.`,
    };
  }
  const why = verdict.opaque ? ' (it passes a shell a script whose commands cannot all be checked)' : '';
  if (!onAsk) {
    return {
      decision: 'deny',
      reason: `${label} needs approval for ${what}${why} and no approver is configured, so it is refused. Run the commands directly, one per call, or ask the user.`,
    };
  }
  let answer: Awaited<ReturnType<AskHandler>>;
  try {
    answer = await onAsk({
      tool,
      args,
      subject: verdict.subject,
      rule: verdict.rule,
      policy: policyName,
      opaque: verdict.opaque === true,
    });
  } catch {
    return { decision: 'deny', reason: `the approver for ${what} failed, so the call is refused.` };
  }
  if (answer === true || answer === 'allow' || (typeof answer === 'object' && answer?.allow === true)) return undefined;
  const reason = typeof answer === 'object' && answer?.reason ? `: ${answer.reason}` : '';
  return { decision: 'deny', reason: `the approver declined ${what}${reason}.` };
}

function shorten(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
