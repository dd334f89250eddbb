/** The error codes the `context` tool returns, so callers can branch on them. */
export const ContextErrorCode = {
  invalidRequest: 'invalid_request',
  invalidRange: 'invalid_range',
  nothingToCompact: 'nothing_to_compact',
  summaryRequired: 'summary_required',
  summaryTooLong: 'summary_too_long',
  noModel: 'no_model',
  autoSummaryFailed: 'auto_summary_failed',
  aborted: 'aborted',
} as const;
