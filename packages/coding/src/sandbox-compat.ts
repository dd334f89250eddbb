// The git-worktree functions under the names they had before they moved to @bough/worktree. They behave exactly as
// before (see internal/sandbox-legacy.ts); new code uses @bough/worktree directly.
import {
  createWorktree,
  discardWorktree,
  PROTECTED_BRANCHES as WORKTREE_PROTECTED_BRANCHES,
  type WorktreeCleanup,
  type WorktreeDiff,
  type WorktreeSession,
  worktreeCommit,
  worktreeDiff,
  worktreeMerge,
} from '@bough/worktree';
import type { CodingFailure } from './errors.js';
import {
  type LegacyMergeResult,
  type LegacySandboxOptions,
  sandboxMergeMessage,
  sandboxMergeResult,
  sandboxResult,
  worktreeOptions,
} from './internal/sandbox-legacy.js';

/** @deprecated Use `WorktreeSession` from `@bough/worktree`. */
export type SandboxSession = WorktreeSession;
/** @deprecated Use `WorktreeOptions` from `@bough/worktree` (limits go under `limits`). */
export type SandboxOptions = Omit<LegacySandboxOptions, 'maxPatchChars'>;
/** @deprecated Use `WorktreeCleanup` from `@bough/worktree`. */
export type SandboxCleanup = WorktreeCleanup;
/**
 * @deprecated Use `WorktreeMergeResult` from `@bough/worktree` (where a merge with incomplete cleanup is the failure
 * `cleanup_incomplete`).
 */
export type SandboxMergeResult = LegacyMergeResult;
/** @deprecated Use `WorktreeDiff` from `@bough/worktree`. */
export type SandboxDiff = WorktreeDiff;

/** @deprecated Use `PROTECTED_BRANCHES` from `@bough/worktree`. */
export const PROTECTED_BRANCHES: readonly string[] = WORKTREE_PROTECTED_BRANCHES;

/** @deprecated Use `createWorktree` from `@bough/worktree` (this one names the branch `sandbox-<hex>`). */
export async function createSandbox(
  workspaceRoot: string,
  options: SandboxOptions = {},
): Promise<{ success: true; session: SandboxSession } | CodingFailure> {
  return sandboxResult(await createWorktree(workspaceRoot, worktreeOptions(options)));
}

/** @deprecated Use `discardWorktree` from `@bough/worktree`. */
export function discardSandbox(session: SandboxSession, options: SandboxOptions = {}): Promise<SandboxCleanup> {
  return discardWorktree(session, worktreeOptions(options));
}

/** @deprecated Use `worktreeCommit` from `@bough/worktree`. */
export async function sandboxCommit(
  session: SandboxSession,
  message: string,
  options: SandboxOptions = {},
): Promise<{ success: true; commit?: string; message: string } | CodingFailure> {
  return sandboxResult(await worktreeCommit(session, message, worktreeOptions(options)));
}

/** @deprecated Use `worktreeMerge` from `@bough/worktree`. */
export async function sandboxMerge(
  session: SandboxSession,
  options: SandboxOptions & { allowProtected?: boolean; protectedBranches?: readonly string[] } = {},
): Promise<SandboxMergeResult | CodingFailure> {
  const { allowProtected, protectedBranches } = options;
  return sandboxMergeResult(
    await worktreeMerge(session, {
      ...worktreeOptions(options),
      ...(allowProtected !== undefined ? { allowProtected } : {}),
      ...(protectedBranches ? { protectedBranches } : {}),
      message: sandboxMergeMessage(session),
    }),
  );
}

/** @deprecated Use `worktreeDiff` from `@bough/worktree` (the patch cap is its `patchChars` limit). */
export async function sandboxDiff(
  session: SandboxSession,
  options: SandboxOptions & { maxPatchChars?: number } = {},
): Promise<SandboxDiff | CodingFailure> {
  return sandboxResult(await worktreeDiff(session, worktreeOptions(options)));
}
