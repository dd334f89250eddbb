/** Every limit of @bough/ai-sdk, each overridable through {@link AiSdkToolOptions}. */
export interface AiSdkLimits {
  /** Longest one tool call may run before it is cancelled and reported as `timed_out`. */
  readonly callTimeoutMs: number;
}

/** Defaults for {@link AiSdkLimits}. */
export const DEFAULT_AI_SDK_LIMITS: AiSdkLimits = Object.freeze({
  // An agent loop must never hang on one stuck tool; tools with shorter limits of their own still apply them.
  callTimeoutMs: 300_000,
});
