import { defineErrorCodes, type ErrorCodeOf } from '@bough/core';
import { WORKSPACE_ERROR_CODES } from '@bough/workspace';

/**
 * Every `error_code` code_nav returns, in one table: its own codes and the workspace refusals it passes through
 * unchanged. The README lists exactly this table.
 */
export const NAV_ERROR_CODES = defineErrorCodes([
  'invalid_request',
  'syntax_error',
  'unsupported_language',
  'unavailable',
  'timeout',
  'nav_failed',
  'workspace_unavailable',
  'aborted',
  ...WORKSPACE_ERROR_CODES,
]);

/** A code of {@link NAV_ERROR_CODES}. */
export type NavErrorCode = ErrorCodeOf<typeof NAV_ERROR_CODES>;
