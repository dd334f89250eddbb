import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';
import { WORKSPACE_ERROR_CODES } from '@bough/workspace';

/**
 * Every failure code of `@bough/process`, in one table: `splitCommand`'s refusals, `runProcess`'s and the sandbox's,
 * and the workspace codes a refused `cwd` passes through unchanged. The README lists exactly this table.
 */
export const PROCESS_ERROR_CODES = defineErrorCodes([
  'empty_command',
  'shell_operator',
  'malformed_command',
  'invalid_argv',
  'invalid_cwd',
  'command_not_found',
  'spawn_failed',
  'aborted',
  'sandbox_unavailable',
  'sandbox_hidden_program',
  'sandbox_unenforceable',
  ...WORKSPACE_ERROR_CODES,
]);

/** Failure codes of this package; stable strings a caller can branch on. */
export type ProcessFailureCode = ErrorCodeOf<typeof PROCESS_ERROR_CODES>;

/** An expected failure as a value (core's `ToolFailure` with this package's codes), so callers never need try/catch. */
export type ProcessFailure = ToolFailure<ProcessFailureCode>;

const build = failureBuilder(PROCESS_ERROR_CODES);

/** Builds a {@link ProcessFailure} whose code must be one of {@link PROCESS_ERROR_CODES}. */
export function processFailure(code: ProcessFailureCode, error: string): ProcessFailure {
  return build(code, error);
}
