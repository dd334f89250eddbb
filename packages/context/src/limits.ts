/** Every limit of the context tool; each can be overridden through the tool options. */
export interface ContextLimits {
  /** Characters of message text shown per line by get_messages. */
  readonly previewChars: number;
  /** Lines returned by one get_messages call before the caller must page with start/end. */
  readonly maxListedMessages: number;
  /** Action results evict_action_results keeps when keep_last is omitted. */
  readonly defaultKeepLast: number;
  /** Characters of the collapsed span sent to the model when compact runs with auto=true. */
  readonly autoSourceChars: number;
  /** Characters of a compaction summary (written by the caller or by the model). */
  readonly maxSummaryChars: number;
}

/** The defaults used when a caller does not override a limit. */
export const DEFAULT_CONTEXT_LIMITS: ContextLimits = Object.freeze({
  // One line per message is enough to recognise it; the full text stays in the record.
  previewChars: 120,
  // Keeps a listing of a very long branch from flooding the context it is meant to curate.
  maxListedMessages: 200,
  // Recent tool output is usually still relevant; five results cover a typical read-edit-check loop.
  defaultKeepLast: 5,
  // Bounds the cost and latency of an auto summary while leaving room for the model's instruction.
  autoSourceChars: 6_000,
  // A summary replaces a span to save room; one longer than a page defeats the purpose and floods the record.
  maxSummaryChars: 4_000,
});

/** Merges caller overrides over the defaults. */
export function resolveContextLimits(overrides: Partial<ContextLimits> = {}): ContextLimits {
  return { ...DEFAULT_CONTEXT_LIMITS, ...overrides };
}
