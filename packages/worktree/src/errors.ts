import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';

/** Every failure code the worktree functions return; the README lists exactly these. */
export const WORKTREE_ERROR_CODES = defineErrorCodes([
  'not_a_git_repo',
  'no_commits',
  'detached_head',
  'git_failed',
  'worktree_missing',
  'worktree_unsafe',
  'merge_refused',
  'protected_branch',
  'merge_conflict',
  'merge_failed',
  'cleanup_incomplete',
]);

/** A failure code of the worktree functions. */
export type WorktreeErrorCode = ErrorCodeOf<typeof WORKTREE_ERROR_CODES>;

/** A failure of the worktree functions. */
export type WorktreeFailure = ToolFailure<WorktreeErrorCode>;

/** Builds a worktree failure; the code must be one of {@link WORKTREE_ERROR_CODES}. */
export const fail = failureBuilder(WORKTREE_ERROR_CODES);
