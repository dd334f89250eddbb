import { defineLimits, type LimitValues } from '@bough/core';

/** Every limit of the messenger tool, each with its reason; override any of them through the provider options. */
export const MESSENGER_LIMITS = defineLimits('messenger', {
  maxContentChars: {
    value: 20_000,
    reason: 'messages are for coordination; long payloads belong in files the teammate can read',
  },
  maxRecipients: {
    value: 32,
    reason: 'a team larger than this should broadcast with to="*" instead of listing names',
  },
  maxReceive: {
    value: 50,
    reason: 'keeps one receive from flooding the context; the remaining count tells the model to call again',
  },
  idPrefixChars: {
    value: 8,
    reason: 'eight hex characters of a UUID are enough to tell teammates apart in a readout',
  },
  maxNameChars: {
    value: 128,
    reason: 'roster names are short labels; a longer one is a mistake and would be echoed back in every error',
  },
  callbackTimeoutMs: {
    value: 30_000,
    rule: 'timeout',
    reason: "a hung coordinator must not hang the agent's turn; half a minute is ample for a local or remote hook",
  },
});

/** The resolved limits of one messenger tool. */
export type MessengerLimits = LimitValues<keyof typeof MESSENGER_LIMITS.defaults>;

/** The defaults used when a caller does not override a limit. */
export const DEFAULT_MESSENGER_LIMITS: MessengerLimits = MESSENGER_LIMITS.defaults;
