import { isAbsolute, resolve } from 'node:path';
import type { PreHook, Touches } from '@bough/core';
import type { PermissionPolicy } from '@bough/policy';
import { touchDenied } from '@bough/policy';
import type { HookMap } from './hook-composition.js';

/** Every path of `touches` made absolute against `root`; the whole workspace becomes `root` itself. */
function absolute(touches: Touches, root: string): Touches {
  const at = (path: string) => (isAbsolute(path) ? path : resolve(root, path));
  return {
    read: [...(touches.read ?? []).map(at), ...(touches.workspace === true ? [root] : [])],
    write: (touches.write ?? []).map(at),
    create: (touches.create ?? []).map(at),
    delete: (touches.delete ?? []).map(at),
    move: (touches.move ?? []).map(({ from, to }) => ({ from: at(from), to: at(to) })),
    ...(touches.cwd !== undefined ? { cwd: at(touches.cwd) } : {}),
  };
}

/**
 * A subagent's own toolkit gets a preset (never more than its parent's), not its parent's policy, and works in its
 * own `cwd`; this adds the parent's deny rules to every one of its calls: each path the child's tool declares is
 * taken from the child's root and judged from the parent's, so a path the parent may not touch stays refused.
 *
 * @param securityPre the child's security pre hooks, to which the check is added first (for every tool)
 * @param policy the parent's policy (only its deny rules are used); without deny rules nothing is added
 * @param parentRoot the parent's workspace root now
 * @param childRoot the directory the child works in
 */
export function withInheritedDeny(
  securityPre: HookMap<PreHook>,
  policy: PermissionPolicy | undefined,
  parentRoot: () => string,
  childRoot: string,
): HookMap<PreHook> {
  if (!policy?.deny || Object.keys(policy.deny).length === 0) return securityPre;
  // This check follows links itself (`touchDenied` walks each path): the child's tools' gates apply the child's own
  // preset where a link leads, not the parent's deny rules, so no gate judges those.
  const check: PreHook = ({ tool, args, touches: given }) => {
    const touches = given ?? tool.touches?.(args);
    if (!touches) return undefined;
    const denied = touchDenied(policy, tool.name, absolute(touches, childRoot), parentRoot());
    if (!denied) return undefined;
    return {
      decision: 'deny',
      reason:
        `the parent's permission policy refuses ${tool.name} ${JSON.stringify(denied.path)}: it matches the deny ` +
        `rule ${JSON.stringify(denied.rule)}. Do not retry it; report it in your answer.`,
    };
  };
  const own = securityPre['*'];
  const rest: readonly PreHook[] = own === undefined ? [] : Array.isArray(own) ? own : [own as PreHook];
  return { ...securityPre, '*': [check, ...rest] };
}
