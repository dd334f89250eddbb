import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';

/** Every failure code the `context` tool returns, in one table; the README lists exactly these. */
export const CONTEXT_ERROR_CODES = defineErrorCodes([
  'invalid_request',
  'invalid_range',
  'nothing_to_compact',
  'summary_required',
  'summary_too_long',
  'no_model',
  'auto_summary_failed',
  'aborted',
]);

/** A failure code of the `context` tool. */
export type ContextErrorCode = ErrorCodeOf<typeof CONTEXT_ERROR_CODES>;

/** A failure of the `context` tool. */
export type ContextFailure = ToolFailure<ContextErrorCode>;

/** Builds a context failure; the code must be one of {@link CONTEXT_ERROR_CODES}. */
export const fail = failureBuilder(CONTEXT_ERROR_CODES);
