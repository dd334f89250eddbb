import { defineLimits, type LimitValues } from '@bough/core';

/** Every limit of the context tool, each with its reason; override any of them through the tool options. */
export const CONTEXT_LIMITS = defineLimits('context', {
  previewChars: {
    value: 120,
    reason: 'one line per message is enough to recognise it; the full text stays in the record',
  },
  maxListedMessages: {
    value: 200,
    reason: 'keeps a listing of a very long branch from flooding the context it is meant to curate',
  },
  defaultKeepLast: {
    value: 5,
    rule: 'non_negative_integer',
    reason: 'recent tool output is usually still relevant; five results cover a typical read-edit-check loop',
  },
  autoSourceChars: {
    value: 6_000,
    reason: "bounds the cost and latency of an auto summary while leaving room for the model's instruction",
  },
  maxSummaryChars: {
    value: 4_000,
    reason: 'a summary replaces a span to save room; one longer than a page defeats the purpose',
  },
});

/** The resolved limits of one context tool. */
export type ContextLimits = LimitValues<keyof typeof CONTEXT_LIMITS.defaults>;

/** The defaults used when a caller does not override a limit. */
export const DEFAULT_CONTEXT_LIMITS: ContextLimits = CONTEXT_LIMITS.defaults;
