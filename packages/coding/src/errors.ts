import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';

/**
 * Every failure code the toolkit adds to the standalone tools' own: the read-before-edit guard, the permission
 * policy, the sandbox, the subagent and the agent loop. The README lists exactly these.
 */
export const CODING_ERROR_CODES = defineErrorCodes([
  // read-before-edit guard
  'not_read',
  'stale_read',
  'guard_check_failed',
  // permission policy and pre hooks
  'denied',
  // sandbox, subagent and agent loop
  'invalid_request',
  'sandbox_active',
  'no_sandbox',
  'sandbox_missing',
  'sandbox_unsafe',
  'not_a_git_repo',
  'no_commits',
  'detached_head',
  'git_failed',
  'merge_refused',
  'protected_branch',
  'merge_conflict',
  'merge_failed',
  'sandbox_error',
  'permission_escalation',
  'no_model',
  'model_error',
  'aborted',
  'subagent_setup_failed',
  'not_a_directory',
]);

/** A failure code the toolkit adds. */
export type CodingErrorCode = ErrorCodeOf<typeof CODING_ERROR_CODES>;

/** A failure the toolkit adds. */
export type CodingFailure = ToolFailure<CodingErrorCode>;

/** Builds a toolkit failure; the code must be one of {@link CODING_ERROR_CODES}. */
export const fail = failureBuilder(CODING_ERROR_CODES);
