/** Every limit of a NATS exchange; each can be overridden through `openNatsExchange({ limits })`. */
export interface NatsExchangeLimits {
  /** Characters of an exchange name. */
  readonly maxNameChars: number;
  /** Characters of an owner id (a branch id). */
  readonly maxOwnerChars: number;
  /** Milliseconds a holder's claim on an owner lasts without a heartbeat (heartbeats run every third of it). */
  readonly leaseMs: number;
  /** Milliseconds one broker request (a publish, an API call) may take before it counts as an outage. */
  readonly requestTimeoutMs: number;
  /** Milliseconds between reconnect attempts while the broker is unreachable. */
  readonly reconnectWaitMs: number;
  /** Milliseconds the broker keeps a stored message (taken or not). */
  readonly maxAgeMs: number;
  /** Milliseconds within which a retried delivery id is stored once by the broker. */
  readonly duplicateWindowMs: number;
  /**
   * Milliseconds before the broker offers again a message this process buffered but did not take, once heartbeats
   * (every third of `leaseMs`) stop extending it: how soon a crashed holder's buffered mail reaches its successor.
   * Must be above `leaseMs / 3`.
   */
  readonly ackWaitMs: number;
  /** Messages of one owner buffered unacknowledged in this process (the broker holds the rest back). */
  readonly maxBuffered: number;
  /** Hand-over records kept per owner to drop redelivered messages after a restart. */
  readonly seenRecords: number;
}

/** The defaults used when a caller does not override a limit. */
export const DEFAULT_NATS_EXCHANGE_LIMITS: NatsExchangeLimits = Object.freeze({
  // Names become subject tokens and stream names; short labels keep them readable.
  maxNameChars: 64,
  // Branch ids are 36-character UUIDs; room for other schemes without letting a subject grow without bound.
  maxOwnerChars: 128,
  // A crashed member's name frees up within this; a heartbeat every 5 s is cheap.
  leaseMs: 15_000,
  // A healthy local broker answers in milliseconds; five seconds is an outage, not a slow answer.
  requestTimeoutMs: 5_000,
  // Reconnect quickly after a broker restart without spinning.
  reconnectWaitMs: 250,
  // A week: mail of a member that is gone for longer is not worth keeping.
  maxAgeMs: 7 * 24 * 3_600_000,
  // Ten minutes covers a retry after an outage of a few minutes.
  duplicateWindowMs: 600_000,
  // Like the lease: when a crashed holder's name frees up, its buffered mail is offered again too.
  ackWaitMs: 15_000,
  // Bounds the memory one owner's backlog takes in this process.
  maxBuffered: 10_000,
  // Only unacknowledged messages can come back; the last thousand hand-overs cover them.
  seenRecords: 1_000,
});

/** Merges caller overrides over the defaults. */
export function resolveNatsExchangeLimits(overrides: Partial<NatsExchangeLimits> = {}): NatsExchangeLimits {
  return { ...DEFAULT_NATS_EXCHANGE_LIMITS, ...overrides };
}
