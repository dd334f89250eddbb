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

/** One copy of a message on its way to one owner's inbox; kept in a ledger until the write is confirmed. */
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
 * The storage under an {@link Exchange}: owners, outboxes, inboxes and the in-flight ledger. Every method is async so
 * a broker-backed implementation can be plugged in; the in-memory one is {@link InMemoryTransport}.
 */
export interface ExchangeTransport {
  /** Adds an owner with empty boxes; returns false when it already exists. */
  addOwner(owner: string): Promise<boolean>;
  /** Removes an owner and its boxes; returns false when it did not exist. */
  removeOwner(owner: string): Promise<boolean>;
  hasOwner(owner: string): Promise<boolean>;
  owners(): Promise<string[]>;
  /** Queues a message in its sender's outbox. */
  enqueue(owner: string, message: ExchangeMessage): Promise<void>;
  /** Removes and returns everything in an owner's outbox, oldest first. */
  takeOutbox(owner: string): Promise<ExchangeMessage[]>;
  /** Records deliveries as in flight before they are written. */
  stage(deliveries: readonly Delivery[]): Promise<void>;
  /** Deliveries recorded as in flight and not yet settled. */
  pending(): Promise<Delivery[]>;
  /** Writes a delivery into its recipient's inbox; may throw (the delivery then stays in flight). */
  writeInbox(delivery: Delivery): Promise<void>;
  /** Removes a delivery from the in-flight ledger once it was written or given up. */
  settle(deliveryId: string): Promise<void>;
  /** Inbox messages oldest-sent first, without removing them. */
  readInbox(owner: string, query?: InboxQuery): Promise<ExchangeMessage[]>;
  /** Removes and returns inbox messages, oldest-sent first. */
  takeInbox(owner: string, query?: InboxQuery): Promise<ExchangeMessage[]>;
}
