// The `sandbox` tool and the deprecated `createSandbox` family answer as they did before the git worktree moved to
// @bough/worktree: branches named `sandbox-<hex>`, `Merge sandbox <branch>` commits, the coding failure codes
// `sandbox_missing` / `sandbox_unsafe`, a merge with incomplete cleanup as `success: false, merged: true`, and limits given as `timeoutMs` / `maxOutputBytes` / `maxPatchChars`.
import type {
  CreateWorktreeOptions,
  WorktreeCleanup,
  WorktreeFailure,
  WorktreeLimits,
  WorktreeMergeResult,
  WorktreeSession,
} from '@bough/worktree';
import type { CodingFailure } from '../errors.js';

/** The options the sandbox functions have always taken. */
export interface LegacySandboxOptions {
  readonly timeoutMs?: number;
  /** Bytes of output kept per git stream (default `gitOutputBytes` of the coding limits). */
  readonly maxOutputBytes?: number;
  readonly signal?: AbortSignal;
  /** Commit identity; without it the repository's own is used, or a neutral fallback when it has none. */
  readonly identity?: { readonly name: string; readonly email: string };
  readonly maxPatchChars?: number;
}

/** The worktree options for sandbox options: the named limits go under `limits`, the branch prefix is `sandbox`. */
export function worktreeOptions(options: LegacySandboxOptions): CreateWorktreeOptions {
  const limits: Partial<WorktreeLimits> = {
    ...(options.timeoutMs !== undefined ? { gitTimeoutMs: options.timeoutMs } : {}),
    ...(options.maxOutputBytes !== undefined ? { gitOutputBytes: options.maxOutputBytes } : {}),
    ...(options.maxPatchChars !== undefined ? { patchChars: options.maxPatchChars } : {}),
  };
  return {
    prefix: 'sandbox',
    limits,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.identity ? { identity: options.identity } : {}),
  };
}

/** The merge commit message the sandbox has always written. */
export const sandboxMergeMessage = (session: WorktreeSession) => `Merge sandbox ${session.branch}`;

const RENAMED = { worktree_missing: 'sandbox_missing', worktree_unsafe: 'sandbox_unsafe' } as const;

/** A result with the worktree failure codes renamed to the sandbox's own; anything else unchanged. */
export function sandboxResult<T extends { readonly success: boolean }>(result: T | WorktreeFailure): T | CodingFailure {
  if (result.success || !('error_code' in result)) return result as T;
  const failure = result as WorktreeFailure;
  const code = failure.error_code;
  if (code === 'worktree_missing' || code === 'worktree_unsafe') {
    return { ...failure, error_code: RENAMED[code] } as CodingFailure;
  }
  return failure as CodingFailure;
}

/** The merge result the sandbox has always given: the cleanup report beside the merge. */
export type LegacyMergeResult = WorktreeCleanup & {
  readonly merged: true;
  readonly commit: string;
  readonly message: string;
};

/** A worktree merge in the sandbox's shape: `cleanup_incomplete` becomes `success: false, merged: true`. */
export function sandboxMergeResult(result: WorktreeMergeResult | WorktreeFailure): LegacyMergeResult | CodingFailure {
  if (result.success) return { ...result, worktree_removed: true, branch_deleted: true, errors: [] };
  if (result.error_code !== 'cleanup_incomplete') return sandboxResult<LegacyMergeResult>(result);
  const left = result as WorktreeFailure & Omit<LegacyMergeResult, 'success' | 'message'>;
  return {
    success: false,
    merged: true,
    commit: left.commit,
    message: left.error,
    worktree_removed: left.worktree_removed,
    branch_deleted: left.branch_deleted,
    errors: left.errors,
  };
}
