import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';

/**
 * Every `error_code` the checkpoint store and the `checkpoints` tool return, in one table; the README lists exactly
 * this table.
 */
export const CHECKPOINTS_ERROR_CODES = defineErrorCodes([
  'invalid_request',
  'invalid_path',
  'checkpoint_not_found',
  'conflict',
  'restore_failed',
  'store_busy',
  'store_error',
  'git_unavailable',
]);

/** A code of {@link CHECKPOINTS_ERROR_CODES}. */
export type CheckpointsErrorCode = ErrorCodeOf<typeof CHECKPOINTS_ERROR_CODES>;

/** An expected failure of the store or the tool, `error_code` typed by {@link CHECKPOINTS_ERROR_CODES}. */
export type CheckpointsFailure = ToolFailure<CheckpointsErrorCode>;

/** Core's failure builder narrowed to the checkpoints table, so a misspelt code does not compile. */
export const failure = failureBuilder(CHECKPOINTS_ERROR_CODES);
