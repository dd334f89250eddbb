import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';
import { WORKSPACE_ERROR_CODES } from '@bough/workspace';

/**
 * Every `error_code` the reader returns, in one table: its own codes and the workspace refusals it passes through
 * unchanged (`too_large` and `io_error` are shared with the workspace table). The README lists exactly this table.
 */
export const READER_ERROR_CODES = defineErrorCodes([
  'invalid_request',
  'output_budget',
  'binary_file',
  'unsupported_document',
  'invalid_document',
  'document_too_large',
  'conversion_failed',
  'conversion_timeout',
  'invalid_url',
  'url_not_allowed',
  'unsupported_scheme',
  'dns_failed',
  'address_not_public',
  'fetch_failed',
  'fetch_timeout',
  'too_many_redirects',
  'aborted',
  'workspace_unavailable',
  ...WORKSPACE_ERROR_CODES,
]);

/** A code of {@link READER_ERROR_CODES}. */
export type ReaderErrorCode = ErrorCodeOf<typeof READER_ERROR_CODES>;

/** An expected reader failure, `error_code` typed by {@link READER_ERROR_CODES}. */
export type ReaderFailure = ToolFailure<ReaderErrorCode>;

/** Core's failure builder narrowed to the reader's table, so a misspelt code does not compile. */
export const failure = failureBuilder(READER_ERROR_CODES);
