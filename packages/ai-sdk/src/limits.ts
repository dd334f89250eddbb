/** Every limit of @bough/ai-sdk, each overridable through {@link AiSdkToolOptions} or {@link AiSdkChatModelOptions}. */
export interface AiSdkLimits {
  /** Longest one tool call may run before it is cancelled and reported as `timed_out`. */
  readonly callTimeoutMs: number;
  /** Longest one model request (one try, the whole streamed answer included) may take before it is abandoned. */
  readonly requestTimeoutMs: number;
  /** Retries after the first try of a model request that failed with 429, 5xx or a dropped connection. */
  readonly maxRetries: number;
  /** Wait before the first retry; each later retry waits twice as long as the one before. */
  readonly initialRetryDelayMs: number;
  /** Longest wait between two tries computed by the backoff. */
  readonly maxRetryDelayMs: number;
  /** Longest `Retry-After` the model server may ask for; a longer one ends the request with its error instead. */
  readonly maxRetryAfterMs: number;
}

/** Defaults for {@link AiSdkLimits}. */
export const DEFAULT_AI_SDK_LIMITS: AiSdkLimits = Object.freeze({
  // An agent loop must never hang on one stuck tool; tools with shorter limits of their own still apply them.
  callTimeoutMs: 300_000,
  // Local models on a CPU can take minutes for one answer; a server silent for longer than this is stuck.
  requestTimeoutMs: 120_000,
  // Enough to ride out a short rate limit or a restarting server, few enough that a dead one fails within a minute.
  maxRetries: 3,
  // Rate limits are usually per second or per minute: start at one second and double.
  initialRetryDelayMs: 1_000,
  maxRetryDelayMs: 30_000,
  // A server asking for more than a minute is better reported to the user than waited for silently.
  maxRetryAfterMs: 60_000,
});
