import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';
import { WORKSPACE_ERROR_CODES } from '@bough/workspace';

/**
 * Every failure code of `@bough/lsp`, in one table: its own codes and the workspace refusals of a path, passed
 * through unchanged. The README lists exactly this table.
 */
export const LSP_ERROR_CODES = defineErrorCodes([
  'unsupported_language',
  'unavailable',
  'timeout',
  'server_crashed',
  'server_error',
  'disposed',
  'aborted',
  ...WORKSPACE_ERROR_CODES,
]);

/** A code of {@link LSP_ERROR_CODES}. */
export type LspErrorCode = ErrorCodeOf<typeof LSP_ERROR_CODES>;

/** An expected failure as a value (core's `ToolFailure` with this package's codes), so callers never need try/catch. */
export type LspFailure = ToolFailure<LspErrorCode>;

const build = failureBuilder(LSP_ERROR_CODES);

/** Builds an {@link LspFailure} whose code must be one of {@link LSP_ERROR_CODES}. */
export function lspFailure(code: LspErrorCode, error: string): LspFailure {
  return build(code, error);
}
