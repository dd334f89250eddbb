/** One message on an exchange; `recipient: null` means a broadcast to every other owner. */
export interface ExchangeMessage {
  readonly id: string;
  readonly sender: string;
  readonly recipient: string | null;
  readonly content: string;
  readonly channel: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
}

/** One copy of a message for one owner's inbox. `id` is the same for every attempt, so a retried write keeps one copy. */
export interface Delivery {
  readonly id: string;
  readonly to: string;
  readonly message: ExchangeMessage;
}

/** Filters for reading or taking from an inbox. */
export interface InboxQuery {
  /** Only messages from this sender id. */
  readonly sender?: string;
  /** At most this many messages (oldest first). */
  readonly limit?: number;
}

/**
 * The storage under an {@link Exchange}: the roster of owners and one durable inbox per owner. A broker-backed
 * implementation shares the roster and the inboxes between processes; the in-memory one is {@link InMemoryTransport}.
 *
 * An owner is *registered* on the exchange (by any process, possibly one that is offline right now) and *held* by at
 * most one live process, the only one that may take from its inbox. Methods throw
 * {@link TransportUnavailableError} when the storage cannot be reached.
 */
export interface ExchangeTransport {
  /**
   * Registers an owner and holds it in this process. True when this call did it (a new owner, or one whose previous
   * holder is gone); false when a live process (this one included) already holds it.
   */
  addOwner(owner: string): Promise<boolean>;
  /** Unregisters an owner this process holds and deletes its mail; false when it is not held here. */
  removeOwner(owner: string): Promise<boolean>;
  /** Whether the owner is registered (held by a live process or waiting for its holder to come back). */
  hasOwner(owner: string): Promise<boolean>;
  /** Whether this process holds the owner. */
  holdsOwner(owner: string): Promise<boolean>;
  /** Every registered owner. */
  owners(): Promise<string[]>;
  /** Stores one copy in its recipient's inbox; resolves once it is stored. Writing the same delivery id twice keeps one. */
  writeInbox(delivery: Delivery): Promise<void>;
  /** Inbox messages of a held owner, oldest first, without removing them. */
  readInbox(owner: string, query?: InboxQuery): Promise<ExchangeMessage[]>;
  /** Removes and returns inbox messages of a held owner, oldest first; a taken message is never returned again. */
  takeInbox(owner: string, query?: InboxQuery): Promise<ExchangeMessage[]>;
  /** Resolves true once a held owner's inbox is not empty (at once if it already is not), false after `timeoutMs`. */
  waitForMail(owner: string, timeoutMs: number): Promise<boolean>;
  /** Lets go of every held owner (they stay registered, their mail kept) and releases connections. */
  close(): Promise<void>;
}
