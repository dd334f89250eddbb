import { defineLimits, type LimitValues } from '@bough/core';

/** Every limit of @bough/ai-sdk, each overridable through {@link AiSdkToolOptions} or {@link AiSdkChatModelOptions}. */
export const AI_SDK_LIMITS = defineLimits('ai-sdk', {
  callTimeoutMs: {
    value: 300_000,
    rule: 'timeout',
    reason: 'an agent loop must never hang on one stuck tool; tools with shorter limits of their own still apply them',
  },
  requestTimeoutMs: {
    value: 120_000,
    rule: 'timeout',
    reason: 'local models on a CPU can take minutes for one answer; a server silent for longer than this is stuck',
  },
  maxRetries: {
    value: 3,
    rule: 'non_negative_integer',
    reason: 'rides out a short rate limit or a restarting server; a dead one still fails within a minute',
  },
  initialRetryDelayMs: {
    value: 1_000,
    rule: 'non_negative',
    reason: 'rate limits are usually per second or per minute: start at one second and double',
  },
  maxRetryDelayMs: { value: 30_000, rule: 'non_negative', reason: 'the longest backoff wait between two tries' },
  maxRetryAfterMs: {
    value: 60_000,
    rule: 'non_negative',
    reason: 'a server asking for more than a minute is better reported to the user than waited for silently',
  },
});

/** The resolved limits of @bough/ai-sdk. */
export type AiSdkLimits = LimitValues<keyof typeof AI_SDK_LIMITS.defaults>;

/** Defaults for {@link AiSdkLimits}. */
export const DEFAULT_AI_SDK_LIMITS: AiSdkLimits = AI_SDK_LIMITS.defaults;
