/** Failure codes of {@link runProcess}; stable strings a caller can branch on. */
export type ProcessFailureCode =
  | 'command_not_found'
  | 'invalid_cwd'
  | 'outside_workspace'
  | 'spawn_failed'
  | 'invalid_argv'
  | 'aborted'
  | 'sandbox_unavailable'
  | 'sandbox_hidden_program';

/** An expected failure as a value (same shape as core's `ToolFailure`), so callers never need try/catch. */
export interface ProcessFailure {
  readonly success: false;
  readonly error: string;
  readonly error_code: ProcessFailureCode | (string & {});
}

/** Builds a {@link ProcessFailure}; kept local so this low-level package does not depend on core. */
export function processFailure(code: ProcessFailureCode, error: string): ProcessFailure {
  return { success: false, error, error_code: code };
}
