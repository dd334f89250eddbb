import type { PreHook, PreHookResult, Touches } from '@bough/core';
import type { LinkRule } from '@bough/workspace';
import type { PermissionDecision, PermissionPolicy } from './permission-policy.js';
import {
  type PermissionLimits,
  type PermissionSubject,
  type PermissionSubjectDescriber,
  permissionSubject,
  STANDARD_PERMISSION_SUBJECTS,
} from './permission-subject.js';
import { pathSubjects } from './policy-paths.js';
import { type ToolRules, toolRules } from './policy-rules.js';

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
   * What the tool's rules are matched against when they are not path rules: its source's describer
   * (`ToolSource.permissionSubject`). Without it, the standard describer of the tool's name (bash: the command,
   * subagent: preset and instruction); a tool with neither has path rules.
   */
  readonly describe?: PermissionSubjectDescriber;
  /**
   * What the call touches (`tool.touches(args)`). Path rules are matched against each touched path; a tool with a
   * describer of its own has its touched paths checked against the deny rules only (bash: its `cwd`).
   */
  readonly touches?: Touches;
  /** The workspace root the touched paths are relative to (they are matched relative to it). */
  readonly root?: string;
  /**
   * Follow symbolic links on the touched paths (default true, when `root` is given): where a link leads is a subject
   * as well. False when the tool's own workspace gate judges where links lead ({@link linkRuleOf}), so the paths are
   * matched as asked and no path is walked twice.
   */
  readonly followLinks?: boolean;
}

const RANK: Readonly<Record<PermissionDecision, number>> = { allow: 0, ask: 1, deny: 2 };

/**
 * Evaluates a policy for one call: deny rules first, then `allowSandboxed` (when `context.sandboxed`), then allow,
 * then ask, else deny. The patterns of `tool` (and of `'*'`) are matched against every path the call touches
 * (`context.touches`, relative to `context.root`); the most restrictive answer over the paths wins, and a deny rule
 * also covers everything under a directory it names. A tool with a describer (`context.describe`, or the standard one
 * of bash and subagent) is matched on what that describer gives, and its touched paths meet the deny rules only. A
 * call that touches no path is matched on its generic subject (action, then the other values).
 *
 * @param policy the rules to consult
 * @param tool the tool's model-facing name, which selects the rules
 * @param args the call's arguments
 * @param limits bounds of the bash command analysis
 * @param context how the call will run (`sandboxed`), what it touches (`touches`, `root`), how it is described
 */
export function evaluatePermission(
  policy: PermissionPolicy,
  tool: string,
  args: unknown,
  limits?: PermissionLimits,
  context: PermissionCallContext = {},
): PermissionVerdict {
  const rules = toolRules(policy, tool);
  // Links are followed only when a rule could tell one path from another (a policy of `*` rules decides alike).
  const follow = rules.namesPaths && context.followLinks !== false;
  const paths = context.touches ? pathSubjects(context.touches, context.root, follow) : [];
  const described = context.describe !== undefined || Object.hasOwn(STANDARD_PERMISSION_SUBJECTS, tool);
  if (described || paths.length === 0) {
    // Path rules still bind a described tool: a touched path a deny rule names refuses the call.
    const denied = firstDenied(rules, paths);
    if (denied) return { decision: 'deny', rule: denied.rule, subject: denied.path };
    return decide(policy, tool, rules, permissionSubject(tool, args, limits, context.describe), context);
  }
  if (paths.length === 1) return decidePath(policy, tool, rules, paths[0] as string, context);
  let verdict: PermissionVerdict | undefined;
  // The subject of an ask is every path that needs approval (an approver that remembers answers sees them all).
  const asked: string[] = [];
  for (const path of paths) {
    const next = decidePath(policy, tool, rules, path, context);
    if (next.decision === 'deny') return next;
    if (next.decision === 'ask') asked.push(path);
    if (verdict === undefined || RANK[next.decision] > RANK[verdict.decision]) verdict = next;
  }
  const decided = verdict as PermissionVerdict;
  const shown = decided.decision === 'ask' ? asked : paths;
  return shown.length === 1 ? decided : { ...decided, subject: shown.join(', ') };
}

/**
 * True when an explicit deny rule of `tool` (or of `'*'`) names `path` (workspace-relative) or a directory above it:
 * for tools that show paths they found (search results), which must never show a denied one.
 */
export function pathDenied(policy: PermissionPolicy, tool: string, path: string): boolean {
  return denyRuleOf(toolRules(policy, tool), path) !== undefined;
}

/**
 * The first path of `touches` an explicit deny rule of `tool` (or `'*'`) names, relative to `root`, with the rule;
 * undefined when none does. For checks that only enforce deny rules (a subagent's calls under its parent's policy).
 */
export function touchDenied(
  policy: PermissionPolicy,
  tool: string,
  touches: Touches,
  root: string,
): { readonly rule: string; readonly path: string } | undefined {
  const rules = toolRules(policy, tool);
  if (rules.deny.patterns.length === 0) return undefined;
  return firstDenied(rules, pathSubjects(touches, root, rules.namesPaths));
}

/**
 * The policy's answer for where a symbolic link may lead, as the workspace gate asks it (`WorkspaceOptions.linkRule`):
 * for a tool matched on its paths, any real path its rules do not allow outright is refused (an ask cannot be put to
 * anyone in the middle of a call, so the model is told to name the real path, which is then asked about); for a tool
 * with a describer (bash), a real path a deny rule names. Give it to the tool whose hook is made with `linksGated`.
 *
 * @param policy the rules to consult
 * @param tool the tool's model-facing name, which selects the rules
 * @param described the tool's rules are matched against a describer's subject, so only deny rules bind its paths
 */
export function linkRuleOf(policy: PermissionPolicy, tool: string, described = false): LinkRule {
  const rules = toolRules(policy, tool);
  const label = policy.name ? `permission policy '${policy.name}'` : 'permission policy';
  // Rules that are all catch-alls answer every path alike: where a link leads cannot change what the hook decided.
  if (!rules.namesPaths) return () => undefined;
  return (real) => {
    if (described) {
      const rule = denyRuleOf(rules, real);
      return rule === undefined
        ? undefined
        : `which the ${label} refuses for ${tool} (deny rule ${JSON.stringify(rule)})`;
    }
    const verdict = decidePath(policy, tool, rules, real, {});
    if (verdict.decision === 'allow') return undefined;
    if (verdict.decision === 'ask') return `which the ${label} asks about for ${tool}: name that path itself`;
    const why = verdict.rule ? `deny rule ${JSON.stringify(verdict.rule)}` : 'no allow rule names it';
    return `which the ${label} refuses for ${tool} (${why})`;
  };
}

function firstDenied(rules: ToolRules, paths: readonly string[]): { rule: string; path: string } | undefined {
  for (const path of paths) {
    const rule = denyRuleOf(rules, path);
    if (rule !== undefined) return { rule, path };
  }
  return undefined;
}

/** The deny rule naming a path or, as a directory, the path itself (`secrets/**` covers a listing of `secrets`). */
function denyRuleOf(rules: ToolRules, path: string): string | undefined {
  if (rules.deny.patterns.length === 0) return undefined;
  return rules.deny.findOne(path) ?? (path.endsWith('/') ? undefined : rules.deny.findOne(`${path}/`));
}

/** {@link decide} for one touched path, without building its subject (the hot path of every path-scoped call). */
function decidePath(
  policy: PermissionPolicy,
  tool: string,
  rules: ToolRules,
  path: string,
  context: PermissionCallContext,
): PermissionVerdict {
  const denied = denyRuleOf(rules, path);
  if (denied !== undefined) return { decision: 'deny', rule: denied, subject: path };
  return afterDeny(policy, tool, rules, path, context);
}

/** deny → allowSandboxed → allow → ask → default deny, for one subject. */
function decide(
  policy: PermissionPolicy,
  tool: string,
  rules: ToolRules,
  subject: PermissionSubject,
  context: PermissionCallContext,
): PermissionVerdict {
  // Deny rules also see the other forms of the subject (the forms a bash command could run as: `/bin/rm x`,
  // `env rm x`, `sh -c 'rm x'` → `rm x`; a path as a directory); allow and ask rules see only the literal one,
  // so a look-alike program cannot borrow an allow rule.
  const denied = rules.deny.find(subject.forms);
  if (denied !== undefined) return { decision: 'deny', rule: denied, subject: subject.literal };
  // A shell script the deny rules could not see into is never allowed outright while deny rules exist:
  // it is escalated to ask (refused without an approver).
  if (subject.opaque && rules.deny.patterns.length > 0)
    return { decision: 'ask', subject: subject.literal, opaque: true };
  return afterDeny(policy, tool, rules, subject.literal, context);
}

/** allowSandboxed → allow → ask → default deny, for a subject no deny rule named (both paths above end here). */
function afterDeny(
  policy: PermissionPolicy,
  tool: string,
  rules: ToolRules,
  subject: string,
  context: PermissionCallContext,
): PermissionVerdict {
  if (context.sandboxed === true && (policy.allowSandboxed ?? []).some((t) => t === tool || t === '*')) {
    return { decision: 'allow', rule: 'allowSandboxed', subject, sandboxed: true };
  }
  const allowed = rules.allow.findOne(subject);
  if (allowed !== undefined) return { decision: 'allow', rule: allowed, subject };
  const asked = rules.ask.findOne(subject);
  if (asked !== undefined) return { decision: 'ask', rule: asked, subject };
  return { decision: 'deny', subject };
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
  /** What the call touches, as its tool declares it (`Tool.touches`); absent when the tool declares nothing. */
  readonly touches?: Touches;
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
 *   describer of each call's tool name (bash, subagent), else every path the call's tool declares it touches
 * @param root the workspace root now (the sandbox worktree while one is active), which touched paths are relative to
 * @param linksGated the tool's workspace gate judges where links lead ({@link linkRuleOf}): paths are matched as asked
 */
export function permissionHook(
  policy: PermissionPolicy,
  onAsk?: AskHandler,
  limits?: PermissionLimits,
  sandboxed?: (tool: string) => boolean,
  describe?: PermissionSubjectDescriber,
  root?: () => string | undefined,
  linksGated = false,
): PreHook {
  const label = policy.name ? `permission policy '${policy.name}'` : 'the permission policy';
  // An allowed call (the common case) is answered synchronously, without a promise or the text a refusal needs.
  return ({ tool, args, touches: given }) => {
    // What the call touches comes from the tool's own declaration, as the executor worked it out for every hook
    // (else asked here); a declaration that throws refuses the call (fail closed).
    const touches = given ?? tool.touches?.(args);
    const verdict = evaluatePermission(policy, tool.name, args, limits, {
      sandboxed: sandboxed?.(tool.name) === true,
      describe,
      touches,
      root: root?.(),
      followLinks: !linksGated,
    });
    if (verdict.decision === 'allow') return undefined;
    return refuseOrAsk(label, tool.name, args, verdict, policy.name, onAsk, touches);
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
  touches?: Touches,
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
      ...(touches ? { touches } : {}),
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
