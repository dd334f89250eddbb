import type { ErrorHook, PostHook, PreHook, ToolHooks } from '@bough/core';

/** Hooks keyed by tool name or '*' (every tool); a key may hold one hook or a list. */
export type HookMap<H> = Readonly<Record<string, H | readonly H[]>>;

/** The caller's hooks for a toolkit; see README "Hook order" for how they run. */
export interface CodingHooks {
  /** Security checks: run first, and again after user pre hooks when those may have rewritten the arguments. */
  readonly securityPre?: HookMap<PreHook>;
  /** User pre hooks: may rewrite arguments (validated again) or deny. */
  readonly pre?: HookMap<PreHook>;
  /** Post hooks: may replace a successful result. */
  readonly post?: HookMap<PostHook>;
  /** Error hooks: run when a handler throws; may map the error to `{ result }`. */
  readonly onError?: HookMap<ErrorHook>;
}

/** Copies a hook set so later changes to the caller's object cannot reach a build. */
export function copyHooks(hooks: CodingHooks | undefined): CodingHooks {
  const copy = <H>(map: HookMap<H> | undefined): HookMap<H> =>
    Object.freeze(
      Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, Object.freeze(listOf(value))])),
    );
  return Object.freeze({
    securityPre: copy(hooks?.securityPre),
    pre: copy(hooks?.pre),
    post: copy(hooks?.post),
    onError: copy(hooks?.onError),
  });
}

function listOf<H>(value: H | readonly H[] | undefined): H[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...(value as readonly H[])] : [value as H];
}

/** What the toolkit itself contributes around the caller's hooks. */
export interface ToolkitHookParts {
  /** The permission policy hook; it runs before every other security hook. */
  readonly permission?: PreHook;
  /** Post hooks that run after the caller's (the nudge note). */
  readonly trailingPost?: readonly PostHook[];
}

/**
 * The hook lists of one tool, in the documented order:
 * pre = permission → securityPre['*'] → securityPre[name] → pre[name] → pre['*'] → (security again, only when the
 * user hooks changed the arguments); post = post[name] → post['*'] → toolkit post; error = onError[name] → onError['*'].
 */
export function composeHooks(name: string, hooks: CodingHooks, parts: ToolkitHookParts = {}): ToolHooks {
  const security = [
    ...(parts.permission ? [parts.permission] : []),
    ...listOf(hooks.securityPre?.['*']),
    ...listOf(hooks.securityPre?.[name]),
  ];
  const user = [...listOf(hooks.pre?.[name]), ...listOf(hooks.pre?.['*'])];
  const pre: PreHook[] = [...security];
  if (user.length > 0) {
    const seen = new Map<string, string>();
    pre.push(({ callId, args }) => {
      if (seen.size > 1_000) seen.clear();
      seen.set(callId, stable(args));
    });
    pre.push(...user);
    if (security.length > 0) pre.push(recheck(security, seen));
  }
  return {
    pre,
    post: [...listOf(hooks.post?.[name]), ...listOf(hooks.post?.['*']), ...(parts.trailingPost ?? [])],
    error: [...listOf(hooks.onError?.[name]), ...listOf(hooks.onError?.['*'])],
  };
}

/** Runs the security hooks again on arguments a user hook rewrote, so a rewrite cannot slip past security. */
function recheck(security: readonly PreHook[], seen: Map<string, string>): PreHook {
  return async (call) => {
    const before = seen.get(call.callId);
    seen.delete(call.callId);
    if (before !== undefined && before === stable(call.args)) return undefined;
    let args = call.args;
    let rewritten = false;
    for (const hook of security) {
      const verdict = await hook({ ...call, args });
      if (verdict === undefined || verdict === null) continue;
      if (typeof verdict !== 'object')
        return { decision: 'deny', reason: 'a security hook returned an unrecognised verdict' };
      if (verdict.decision === 'deny') return verdict;
      if (verdict.decision !== undefined && verdict.decision !== 'allow') {
        return { decision: 'deny', reason: 'a security hook returned an unknown decision; failing closed' };
      }
      if ('args' in verdict && verdict.args !== undefined) {
        args = verdict.args;
        rewritten = true;
      }
    }
    return rewritten ? { args } : undefined;
  };
}

function stable(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return `unserialisable:${Math.random()}`;
  }
}
