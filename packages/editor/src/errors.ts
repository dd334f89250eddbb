import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';
import { WORKSPACE_ERROR_CODES } from '@bough/workspace';

/**
 * Every `error_code` the editor returns, in one table: its own codes and the workspace refusals it passes through
 * unchanged (`too_large`, `already_exists` and `io_error` are shared with the workspace table). The README lists
 * exactly this table.
 */
export const EDITOR_ERROR_CODES = defineErrorCodes([
  'invalid_request',
  'no_change',
  'ambiguous_match',
  'too_many_edits',
  'invalid_patch',
  'unsupported_patch',
  'patch_conflict',
  'not_found_in_file',
  'multiple_matches',
  'unsupported_encoding',
  'file_changed',
  'aborted',
  'workspace_unavailable',
  ...WORKSPACE_ERROR_CODES,
]);

/** A code of {@link EDITOR_ERROR_CODES}. */
export type EditorErrorCode = ErrorCodeOf<typeof EDITOR_ERROR_CODES>;

/** An expected editor failure, `error_code` typed by {@link EDITOR_ERROR_CODES}; extra context fields are kept. */
export type EditorFailure = ToolFailure<EditorErrorCode>;

/** Core's failure builder narrowed to the editor's table, so a misspelt code does not compile. */
export const failure = failureBuilder(EDITOR_ERROR_CODES);
