import { defineErrorCodes, type ErrorCodeOf } from '@bough/core';
import { WORKSPACE_ERROR_CODES } from '@bough/workspace';

/**
 * Every `error_code` ast_search returns, in one table: its own codes and the workspace refusals of `path`, passed
 * through unchanged. The README lists exactly this table.
 */
export const AST_SEARCH_ERROR_CODES = defineErrorCodes([
  'invalid_request',
  'invalid_pattern',
  'language_unavailable',
  'unavailable',
  'workspace_unavailable',
  'aborted',
  ...WORKSPACE_ERROR_CODES,
]);

/** A code of {@link AST_SEARCH_ERROR_CODES}. */
export type AstSearchErrorCode = ErrorCodeOf<typeof AST_SEARCH_ERROR_CODES>;
