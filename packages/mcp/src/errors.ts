import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';

/**
 * Every failure code `@bough/mcp` adds to the executor's own: a proxied tool's `remote_error` and
 * `remote_unavailable`, and the served-roots refusals `no_roots`, `outside_roots`, `mixed_roots`. The README lists
 * exactly these.
 */
export const MCP_ERROR_CODES = defineErrorCodes([
  'remote_error',
  'remote_unavailable',
  'no_roots',
  'outside_roots',
  'mixed_roots',
]);

/** A failure code of `@bough/mcp`. */
export type McpErrorCode = ErrorCodeOf<typeof MCP_ERROR_CODES>;

/** A failure `@bough/mcp` returns as a tool result. */
export type McpFailure = ToolFailure<McpErrorCode>;

/** Builds an mcp failure; the code must be one of {@link MCP_ERROR_CODES}. */
export const fail = failureBuilder(MCP_ERROR_CODES);
