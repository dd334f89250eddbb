/** Every limit of the messenger tool; each can be overridden through the provider options. */
export interface MessengerLimits {
  /** Characters of one message's content. */
  readonly maxContentChars: number;
  /** Names one send or wakeup may address. */
  readonly maxRecipients: number;
  /** Messages one receive returns; the rest stay queued for the next receive. */
  readonly maxReceive: number;
  /** Characters of a branch id used as a display name when the roster has no name for it. */
  readonly idPrefixChars: number;
  /** Characters of one teammate name in "to" or "from". */
  readonly maxNameChars: number;
  /** Milliseconds a coordinator callback may take before the signal is reported as not answered. */
  readonly callbackTimeoutMs: number;
}

/** The defaults used when a caller does not override a limit. */
export const DEFAULT_MESSENGER_LIMITS: MessengerLimits = Object.freeze({
  // Messages are for coordination; long payloads belong in files the teammate can read.
  maxContentChars: 20_000,
  // A team larger than this should broadcast with to="*" instead of listing names.
  maxRecipients: 32,
  // Keeps one receive from flooding the context; the remaining count tells the model to call again.
  maxReceive: 50,
  // Eight hex characters of a UUID are enough to tell teammates apart in a readout.
  idPrefixChars: 8,
  // Roster names are short labels; a longer one is a mistake, and it would be echoed back in every error.
  maxNameChars: 128,
  // A hung coordinator must not hang the agent's turn; half a minute is ample for an in-process or remote hook.
  callbackTimeoutMs: 30_000,
});

/** Merges caller overrides over the defaults. */
export function resolveMessengerLimits(overrides: Partial<MessengerLimits> = {}): MessengerLimits {
  return { ...DEFAULT_MESSENGER_LIMITS, ...overrides };
}
