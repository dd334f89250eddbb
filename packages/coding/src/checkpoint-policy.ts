// How the permission policy binds the `checkpoints` tool. A restore writes workspace files and a diff shows their
// content, so each is judged as the tool that does the same thing: a restore by the editor's rules, a list or diff
// by the reader's. And the store itself is told which paths those rules deny, so a restore of the whole workspace
// never writes one and no diff or list ever shows one (see README "Checkpoints and the policy").
import type { PreHook } from '@bough/core';
import {
  type AskHandler,
  type PermissionLimits,
  type PermissionPolicy,
  pathDenied,
  permissionHook,
} from '@bough/policy';
import { isCatchAll, toolRules } from '@bough/policy/internal';

/**
 * The paths the checkpoint store must keep out under `policy`: those a deny rule of the reader, the editor or `'*'`
 * names (catch-all rules deny a tool, not paths, and are left to the permission check). Undefined when no rule names
 * a path, so the store does no per-path work.
 */
export function checkpointExclusions(policy: PermissionPolicy): ((path: string) => boolean) | undefined {
  const names = (tool: string) => toolRules(policy, tool).deny.patterns.filter((pattern) => !isCatchAll(pattern));
  const narrowed: PermissionPolicy = { deny: { reader: names('reader'), editor: names('editor') } };
  if (narrowed.deny?.reader?.length === 0 && narrowed.deny?.editor?.length === 0) return undefined;
  return (path) => pathDenied(narrowed, 'reader', path) || pathDenied(narrowed, 'editor', path);
}

/**
 * The permission check of a `checkpoints` call: `restore` is judged by the editor's rules, `list` and `diff` by the
 * reader's, over the paths the call declares it touches (a call without `paths` touches the workspace as a whole,
 * and the store leaves the denied paths out of it).
 */
export function checkpointsPermission(
  policy: PermissionPolicy,
  onAsk: AskHandler | undefined,
  limits: PermissionLimits,
  root: () => string,
): PreHook {
  // The tool keeps its own name (in refusals and asks); its rules are the editor's or the reader's.
  // This check follows links itself: the paths a diff or restore names are looked up in the store's trees (git keeps
  // a link as a link and refuses a path beyond one), not walked by a gate that could judge where a link leads.
  const as = (tool: string) => permissionHook(borrowRules(policy, tool), onAsk, limits, undefined, undefined, root);
  const restore = as('editor');
  const look = as('reader');
  return (call) => ((call.args as { action?: unknown } | null)?.action === 'restore' ? restore : look)(call);
}

/** `policy` with the `checkpoints` rules replaced by those of `tool` (`'*'` rules still apply on top). */
function borrowRules(policy: PermissionPolicy, tool: string): PermissionPolicy {
  const pick = (rules: PermissionPolicy['deny']) => ({ ...rules, checkpoints: [...(rules?.[tool] ?? [])] });
  return { ...policy, deny: pick(policy.deny), allow: pick(policy.allow), ask: pick(policy.ask) };
}
