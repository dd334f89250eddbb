import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';
import { WORKSPACE_ERROR_CODES } from '@bough/workspace';

/**
 * Every `error_code` the search tool returns, in one table: its own codes and the workspace refusals of `path`,
 * passed through unchanged. The README lists exactly this table.
 */
export const SEARCH_ERROR_CODES = defineErrorCodes([
  'invalid_request',
  'invalid_pattern',
  'invalid_glob',
  'search_failed',
  'search_unavailable',
  'workspace_unavailable',
  'aborted',
  ...WORKSPACE_ERROR_CODES,
]);

/** A code of {@link SEARCH_ERROR_CODES}. */
export type SearchErrorCode = ErrorCodeOf<typeof SEARCH_ERROR_CODES>;

/** An expected search failure, `error_code` typed by {@link SEARCH_ERROR_CODES}. */
export type SearchFailure = ToolFailure<SearchErrorCode>;

/** Core's failure builder narrowed to the search table, so a misspelt code does not compile. */
export const failure = failureBuilder(SEARCH_ERROR_CODES);

/** True when `code` (for example one passed up from `@bough/process`) is one of this package's codes. */
export function isSearchErrorCode(code: string): code is SearchErrorCode {
  return (SEARCH_ERROR_CODES as readonly string[]).includes(code);
}
