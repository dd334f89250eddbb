import { defineErrorCodes, type ErrorCodeOf, type ToolFailure } from '@bough/core';

/**
 * The failure codes an adapted tool can return besides the tool's own: those of core's executor, which runs every
 * call (validation, hooks, timeout, abort). The README lists exactly these.
 */
export const AI_SDK_ERROR_CODES = defineErrorCodes([
  'invalid_request',
  'denied',
  'handler_error',
  'timed_out',
  'aborted',
  'unknown_tool',
]);

/** A failure code an adapted tool adds to the tool's own. */
export type AiSdkErrorCode = ErrorCodeOf<typeof AI_SDK_ERROR_CODES>;

/** A failure an adapted tool adds to the tool's own. */
export type AiSdkFailure = ToolFailure<AiSdkErrorCode>;
