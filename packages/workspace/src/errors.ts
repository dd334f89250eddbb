import { defineErrorCodes, type ErrorCodeOf, failureBuilder, isToolFailure, type ToolFailure } from '@bough/core';

/** Every stable code a workspace refusal can carry: the one table the README lists and `error_code` is typed by. */
export const WORKSPACE_ERROR_CODES = defineErrorCodes([
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
  'denied',
]);

/** Stable codes for every way a path can be refused, shared unchanged by every path-taking tool. */
export type WorkspaceErrorCode = ErrorCodeOf<typeof WORKSPACE_ERROR_CODES>;

/** Core's ToolFailure narrowed to the workspace codes, so a tool can return a workspace refusal as-is. */
export type WorkspaceFailure = ToolFailure<WorkspaceErrorCode>;

const fail = failureBuilder(WORKSPACE_ERROR_CODES);

/** Builds a refusal value; messages are written for a model and say what to do next. */
export function workspaceFailure(code: WorkspaceErrorCode, message: string): WorkspaceFailure {
  return fail(code, message);
}

/** Lets callers branch on a workspace result without knowing which operation produced it. */
export function isWorkspaceFailure(value: unknown): value is WorkspaceFailure {
  return isToolFailure(value);
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
