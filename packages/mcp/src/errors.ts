/** Error codes a proxied tool can return on top of the executor's own. */
export const McpErrorCode = {
  remoteError: 'remote_error',
  remoteUnavailable: 'remote_unavailable',
} as const;
