/** Every stable code a workspace refusal can carry, for callers that enumerate or document them. */
export const WORKSPACE_ERROR_CODES = Object.freeze([
  'invalid_path',
  'outside_workspace',
  'symlink_rejected',
  'protected_path',
  'not_found',
  'not_a_file',
  'not_a_directory',
  'special_file',
  'changed_during_check',
  'io_error',
  'too_large',
  'already_exists',
] as const);

/** Stable codes for every way a path can be refused, shared unchanged by every path-taking tool. */
export type WorkspaceErrorCode = (typeof WORKSPACE_ERROR_CODES)[number];

/** Structurally identical to core's ToolFailure, so a tool can return a workspace refusal as-is. */
export interface WorkspaceFailure {
  readonly success: false;
  readonly error: string;
  readonly error_code: WorkspaceErrorCode;
  /** Never set; declared so `if (!result.ok)` narrows every workspace result union. */
  readonly ok?: undefined;
}

/** Builds a refusal value; messages are written for a model and say what to do next. */
export function workspaceFailure(code: WorkspaceErrorCode, message: string): WorkspaceFailure {
  return { success: false, error: message, error_code: code };
}

/** Lets callers branch on a workspace result without knowing which operation produced it. */
export function isWorkspaceFailure(value: unknown): value is WorkspaceFailure {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { success?: unknown }).success === false &&
    typeof (value as { error_code?: unknown }).error_code === 'string'
  );
}

/** Quotes a model-supplied path for a message: bounded length, control characters escaped. */
export function quotePath(input: string): string {
  const cut = input.length > 160 ? `${input.slice(0, 150)}…${input.slice(-9)}` : input;
  return JSON.stringify(cut);
}

/** Reads the errno code of a thrown fs error without trusting its shape. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
