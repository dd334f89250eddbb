// The protected-name policy as tests use it: the workspace defaults (never a hand copy of them) plus a session's own
// names, and one shared test of a walking tool that is handed such a policy.
import { DEFAULT_PROTECTED, type ProtectedNamePolicy } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TempWorkspace } from './workspace.js';

/** The workspace's default protected names with a session's own added: extra names and extra patterns. */
export function protectedPolicyWith(extra: {
  readonly names?: readonly string[];
  readonly patterns?: readonly string[];
}): ProtectedNamePolicy {
  return {
    ...DEFAULT_PROTECTED,
    names: [...DEFAULT_PROTECTED.names, ...(extra.names ?? [])],
    patterns: [...DEFAULT_PROTECTED.patterns, ...(extra.patterns ?? [])],
  };
}

/** Text that must never appear in a response of a tool given {@link describeProtectedPolicy}'s policy. */
export const PROTECTED_CANARY = 'TOKEN-1234';

/** The paths the shared test names outright: a file name the policy adds, a file in its folder, and the folder. */
export const PROTECTED_PATHS: readonly string[] = ['secret.ts', '.bough/state.ts', '.bough'];

/** A walking tool under test: how to call it, and what its answers must show. */
export interface ProtectedPolicyOptions {
  /** The tool's name, for the test titles. */
  readonly tool: string;
  /** A file outside the policy: its path and text. */
  readonly open: readonly [path: string, text: string];
  /** The text of the protected files (`secret.ts`, `.bough/state.ts`); it must contain {@link PROTECTED_CANARY}. */
  readonly secret: string;
  /** Runs the tool over the whole root, with the policy or (to prove the skip is the policy's doing) without it. */
  readonly walk: (root: string, protectedNames?: ProtectedNamePolicy) => Promise<unknown>;
  /** Runs the tool on one path named outright, with the policy. */
  readonly named: (root: string, path: string, protectedNames: ProtectedNamePolicy) => Promise<unknown>;
  /** More the walk with the policy must show (e.g. only the open file was checked). */
  readonly walked?: (result: unknown) => void;
  /** Asserts the walk without the policy did reach the protected text. */
  readonly reachedWithout: (result: unknown) => void;
  /** More each named call must show (e.g. no diagnostics). */
  readonly namedResult?: (result: unknown, path: string) => void;
}

/**
 * The protected-name test of a tool that walks the workspace: given the defaults plus `.bough` and `secret.ts`, a walk
 * of the root succeeds, counts what it skipped as `protected` and never shows the protected text (without the
 * policy it does reach it), and a call naming a protected file or folder outright never shows it either.
 */
export function describeProtectedPolicy(options: ProtectedPolicyOptions): void {
  const policy = protectedPolicyWith({ names: ['.bough', 'secret.ts'] });
  if (!options.secret.includes(PROTECTED_CANARY))
    throw new Error(`the protected text must contain ${PROTECTED_CANARY}`);
  let ws: TempWorkspace;
  beforeEach(() => {
    const [path, text] = options.open;
    ws = makeWorkspace({ [path]: text, 'secret.ts': options.secret, '.bough/state.ts': options.secret });
  });
  afterEach(() => ws.cleanup());

  describe(`${options.tool} honours the protected-name policy it is given`, () => {
    it('skips and counts protected files in a walk of the root, and never shows their text', async () => {
      const result = await options.walk(ws.root, policy);
      expect(result).toMatchObject({ success: true });
      expect(JSON.stringify(result)).not.toContain(PROTECTED_CANARY);
      expect((result as { skipped?: Record<string, number> }).skipped?.protected).toBeGreaterThanOrEqual(1);
      options.walked?.(result);
      options.reachedWithout(await options.walk(ws.root));
    });

    it('never shows a protected file or folder named outright', async () => {
      for (const path of PROTECTED_PATHS) {
        const result = await options.named(ws.root, path, policy);
        expect(JSON.stringify(result), path).not.toContain(PROTECTED_CANARY);
        options.namedResult?.(result, path);
      }
    });
  });
}
