import { ConfigurationError, defineLimits, type LimitValues } from '@bough/core';

/** Every limit of a NATS exchange, each with its reason; override any of them through `openNatsExchange({ limits })`. */
export const NATS_EXCHANGE_LIMITS = defineLimits('messenger-nats', {
  maxNameChars: { value: 64, reason: 'names become subject tokens and stream names; short labels keep them readable' },
  maxOwnerChars: {
    value: 128,
    reason: 'branch ids are 36-character UUIDs; room for other schemes without letting a subject grow without bound',
  },
  leaseMs: {
    value: 15_000,
    reason: "a crashed member's name frees up within this; a heartbeat every third of it is cheap",
  },
  requestTimeoutMs: {
    value: 5_000,
    rule: 'timeout',
    reason: 'a healthy local broker answers in milliseconds; five seconds is an outage, not a slow answer',
  },
  reconnectWaitMs: { value: 250, reason: 'reconnect quickly after a broker restart without spinning' },
  maxAgeMs: {
    value: 7 * 24 * 3_600_000,
    reason: 'a week: mail of a member that is gone for longer is not worth keeping',
  },
  duplicateWindowMs: { value: 600_000, reason: 'ten minutes covers a retry after an outage of a few minutes' },
  ackWaitMs: {
    value: 15_000,
    reason: "like the lease: when a crashed holder's name frees up, its buffered mail is offered again too",
  },
  maxBuffered: { value: 10_000, reason: "bounds the memory one owner's backlog takes in this process" },
  seenRecords: {
    value: 1_000,
    reason: 'only unacknowledged messages can come back; the last thousand hand-overs cover them',
  },
});

/** The resolved limits of one NATS exchange. */
export type NatsExchangeLimits = LimitValues<keyof typeof NATS_EXCHANGE_LIMITS.defaults>;

/** The defaults used when a caller does not override a limit. */
export const DEFAULT_NATS_EXCHANGE_LIMITS: NatsExchangeLimits = NATS_EXCHANGE_LIMITS.defaults;

/**
 * Resolves overrides once per exchange: each key is checked by its rule, and `ackWaitMs` must exceed a heartbeat
 * interval (`leaseMs / 3`), or buffered mail would be offered again while its holder is alive.
 */
export function resolveNatsExchangeLimits(overrides?: Partial<NatsExchangeLimits>): NatsExchangeLimits {
  const limits = NATS_EXCHANGE_LIMITS.resolve(overrides);
  if (limits.ackWaitMs <= limits.leaseMs / 3) {
    throw new ConfigurationError(
      `messenger-nats limits.ackWaitMs must be above leaseMs / 3 (${limits.leaseMs / 3}); got ${limits.ackWaitMs}`,
      { code: 'invalid_limit' },
    );
  }
  return limits;
}
