import type { ToolFailure } from '@bough/core';

/**
 * A failed dialect call as every front door reports it: a typed `{ success: false, error, error_code }` whose `error`
 * is the text the provider documents for it (shown to the model as is: MCP marks the result `isError`, the AI SDK
 * sends it as an `error-text` output, which Anthropic's API receives as `is_error: true`). `error_code` is the code
 * of the underlying bough failure, or `invalid_request` for a call the dialect itself refuses.
 */
export type DialectFailure = ToolFailure;

/** A dialect failure with the provider's wording. */
export function dialectFailure(error: string, errorCode = 'invalid_request'): DialectFailure {
  return { success: false, error, error_code: errorCode };
}
