/** A git worktree on its own branch as a session: create, diff, commit, merge back, discard. */

/** The read-only diff of a session against its base commit. */
export { type WorktreeDiff, worktreeDiff } from './diff.js';
/** The failure code table of the worktree functions. */
export { WORKTREE_ERROR_CODES, type WorktreeErrorCode, type WorktreeFailure } from './errors.js';
/** Limits, each overridable through the `limits` option. */
export { DEFAULT_WORKTREE_LIMITS, WORKTREE_LIMITS, type WorktreeLimits } from './limits.js';
/** Committing in a session and merging it back into its base. */
export {
  PROTECTED_BRANCHES,
  type WorktreeCommitResult,
  type WorktreeMergeOptions,
  type WorktreeMergeResult,
  worktreeCommit,
  worktreeMerge,
} from './merge.js';
/** Creating a session and its retry-safe cleanup. */
export {
  type CreatedWorktree,
  type CreateWorktreeOptions,
  createWorktree,
  discardWorktree,
  type WorktreeCleanup,
  type WorktreeOptions,
  type WorktreeSession,
} from './session.js';
