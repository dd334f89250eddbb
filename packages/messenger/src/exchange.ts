import { randomUUID } from 'node:crypto';
import type { Delivery, ExchangeMessage, ExchangeTransport } from './exchange-transport.js';
import { InMemoryTransport } from './memory-transport.js';

/** Thrown for misuse of an {@link Exchange}: unknown or duplicate owners. */
export class ExchangeError extends Error {
  override readonly name = 'ExchangeError';
}

/** What one collect or drain did. */
export interface CollectReport {
  /** Distinct messages taken from outboxes (a broadcast counts once). */
  readonly messages: number;
  /** Copies written into inboxes. */
  readonly delivered: number;
  /** Direct messages whose recipient is not registered (or copies whose recipient left). */
  readonly dropped: number;
  /** Copies whose write failed; they stay in flight until {@link Exchange.drainPending} succeeds. */
  readonly failed: number;
}

/** Options of an {@link Exchange}. */
export interface ExchangeOptions {
  readonly transport?: ExchangeTransport;
  /** Channel of messages sent without one. */
  readonly defaultChannel?: string;
  /** Clock, for tests. */
  readonly now?: () => number;
}

const EMPTY: CollectReport = Object.freeze({ messages: 0, delivered: 0, dropped: 0, failed: 0 });

function add(a: CollectReport, b: CollectReport): CollectReport {
  return {
    messages: a.messages + b.messages,
    delivered: a.delivered + b.delivered,
    dropped: a.dropped + b.dropped,
    failed: a.failed + b.failed,
  };
}

/**
 * A mailbox hub for agents (one owner per branch id): send queues in the sender's outbox, collect moves mail into
 * the recipients' inboxes through an in-flight ledger, so a write that fails half-way can be retried.
 */
export class Exchange {
  readonly #transport: ExchangeTransport;
  readonly #defaultChannel: string;
  readonly #now: () => number;
  #dropped = 0;

  constructor(options: ExchangeOptions = {}) {
    this.#transport = options.transport ?? new InMemoryTransport();
    this.#defaultChannel = options.defaultChannel ?? 'default';
    this.#now = options.now ?? Date.now;
  }

  /** Messages dropped since this exchange was created (unknown recipients). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Adds an owner; registering the same id twice throws. */
  async register(owner: string): Promise<void> {
    if (!(await this.#transport.addOwner(owner))) throw new ExchangeError(`Owner ${owner} is already registered.`);
  }

  /** Removes an owner and its mail; returns whether it was registered. */
  async unregister(owner: string): Promise<boolean> {
    return this.#transport.removeOwner(owner);
  }

  has(owner: string): Promise<boolean> {
    return this.#transport.hasOwner(owner);
  }

  ownerIds(): Promise<string[]> {
    return this.#transport.owners();
  }

  /** Queues a message in the sender's outbox; `recipient: null` broadcasts to every other owner at collect time. */
  async send(
    sender: string,
    recipient: string | null,
    content: string,
    options: { channel?: string } = {},
  ): Promise<ExchangeMessage> {
    if (!(await this.#transport.hasOwner(sender))) throw new ExchangeError(`Sender ${sender} is not registered.`);
    const message: ExchangeMessage = Object.freeze({
      id: randomUUID(),
      sender,
      recipient,
      content,
      channel: options.channel ?? this.#defaultChannel,
      createdAt: this.#now(),
    });
    await this.#transport.enqueue(sender, message);
    return message;
  }

  /** Delivers one owner's outbox; failed writes stay in flight and are counted, not thrown. */
  async collect(owner: string): Promise<CollectReport> {
    if (!(await this.#transport.hasOwner(owner))) throw new ExchangeError(`Owner ${owner} is not registered.`);
    const outbox = await this.#transport.takeOutbox(owner);
    if (outbox.length === 0) return EMPTY;
    const owners = new Set(await this.#transport.owners());
    const deliveries: Delivery[] = [];
    let dropped = 0;
    for (const message of outbox) {
      if (message.recipient === null) {
        for (const to of owners) if (to !== message.sender) deliveries.push({ id: randomUUID(), to, message });
      } else if (owners.has(message.recipient)) {
        deliveries.push({ id: randomUUID(), to: message.recipient, message });
      } else {
        dropped += 1;
      }
    }
    try {
      await this.#transport.stage(deliveries);
    } catch (error) {
      // Nothing is in flight yet: put the taken mail back in the outbox so the next collect retries it.
      await this.#requeue(owner, outbox);
      throw error;
    }
    this.#dropped += dropped;
    const written = await this.#write(deliveries);
    return { ...written, messages: outbox.length, dropped: dropped + written.dropped };
  }

  async #requeue(owner: string, messages: readonly ExchangeMessage[]): Promise<void> {
    for (const message of messages) {
      try {
        await this.#transport.enqueue(owner, message);
      } catch {
        // The transport refuses writes altogether; the caller still gets the original error.
      }
    }
  }

  /** Collects every owner's outbox. */
  async collectAll(): Promise<CollectReport> {
    let total = EMPTY;
    for (const owner of await this.#transport.owners()) total = add(total, await this.collect(owner));
    return total;
  }

  /** Retries deliveries that are still in flight (a write failed earlier); recipients that left are dropped. */
  async drainPending(): Promise<CollectReport> {
    return this.#write(await this.#transport.pending());
  }

  async #write(deliveries: readonly Delivery[]): Promise<CollectReport> {
    let delivered = 0;
    let dropped = 0;
    let failed = 0;
    for (const delivery of deliveries) {
      if (!(await this.#transport.hasOwner(delivery.to))) {
        dropped += 1;
        this.#dropped += 1;
        await this.#transport.settle(delivery.id);
        continue;
      }
      try {
        await this.#transport.writeInbox(delivery);
      } catch {
        failed += 1;
        continue;
      }
      await this.#transport.settle(delivery.id);
      delivered += 1;
    }
    return { messages: 0, delivered, dropped, failed };
  }

  /** Inbox messages of an owner (optionally from one sender), oldest first, without removing them. */
  receive(owner: string, sender?: string): Promise<ExchangeMessage[]> {
    return this.#transport.readInbox(owner, sender === undefined ? {} : { sender });
  }

  /** Removes and returns the oldest inbox message (optionally from one sender), or undefined. */
  async pop(owner: string, sender?: string): Promise<ExchangeMessage | undefined> {
    const [first] = await this.#transport.takeInbox(owner, { limit: 1, ...(sender === undefined ? {} : { sender }) });
    return first;
  }

  /** Removes and returns up to `limit` inbox messages (optionally from one sender), oldest first. */
  popMany(owner: string, options: { sender?: string; limit?: number } = {}): Promise<ExchangeMessage[]> {
    return this.#transport.takeInbox(owner, options);
  }
}
