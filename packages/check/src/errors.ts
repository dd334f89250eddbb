import { defineErrorCodes, type ErrorCodeOf } from '@bough/core';
import { WORKSPACE_ERROR_CODES } from '@bough/workspace';

/**
 * Every `error_code` code_check returns, in one table: its own codes and the workspace refusals of a named path,
 * passed through unchanged. The README lists exactly this table.
 */
export const CODE_CHECK_ERROR_CODES = defineErrorCodes([
  'invalid_request',
  'unavailable',
  'workspace_unavailable',
  'aborted',
  ...WORKSPACE_ERROR_CODES,
]);

/** A code of {@link CODE_CHECK_ERROR_CODES}. */
export type CodeCheckErrorCode = ErrorCodeOf<typeof CODE_CHECK_ERROR_CODES>;
