import { randomUUID } from 'node:crypto';
import { BoughError, type BoughErrorOptions } from '@bough/core';
import type { Delivery, ExchangeMessage, ExchangeTransport } from './exchange-transport.js';
import { InMemoryTransport } from './memory-transport.js';
import { TransportUnavailableError } from './transport-error.js';

/** Thrown for misuse of an {@link Exchange}: unknown, duplicate or foreign owners (code `exchange_misuse`). */
export class ExchangeError extends BoughError {
  constructor(message: string, options: BoughErrorOptions = {}) {
    super(message, { ...options, code: options.code ?? 'exchange_misuse' });
  }
}

/** What one retry of in-flight copies did. */
export interface CollectReport {
  /** Always 0: a send delivers at once; kept so older callers of `collect` still read a full report. */
  readonly messages: number;
  /** Copies written into inboxes. */
  readonly delivered: number;
  /** Copies whose recipient left before they could be written. */
  readonly dropped: number;
  /** Copies whose write failed again; they stay in flight. */
  readonly failed: number;
}

/** Options of an {@link Exchange}. */
export interface ExchangeOptions {
  readonly transport?: ExchangeTransport;
  /** Channel of messages sent without one. */
  readonly defaultChannel?: string;
  /**
   * Where the exchange reads the time, in epoch milliseconds (default `Date.now`): each message's `createdAt` comes from it.
   * Pass one clock to several exchanges that must agree on time, or a fixed clock for reproducible transcripts.
   */
  readonly now?: () => number;
}

/**
 * A mailbox hub for agents (one owner per branch id). `send` writes the message into each recipient's inbox before
 * it returns; a broadcast copy whose write failed stays in flight in this process and is retried (with the same
 * delivery id, so it is stored once) before this sender's next send and on every {@link Exchange.drainPending}.
 */
export class Exchange {
  readonly #transport: ExchangeTransport;
  readonly #defaultChannel: string;
  readonly #now: () => number;
  readonly #inFlight = new Map<string, Delivery>();
  #dropped = 0;

  constructor(options: ExchangeOptions = {}) {
    this.#transport = options.transport ?? new InMemoryTransport();
    this.#defaultChannel = options.defaultChannel ?? 'default';
    this.#now = options.now ?? Date.now;
  }

  /** The storage under this exchange. */
  get transport(): ExchangeTransport {
    return this.#transport;
  }

  /** Messages dropped since this exchange was created (unknown recipients, recipients that left). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Copies whose write failed and that are waiting for a retry. */
  get pendingCount(): number {
    return this.#inFlight.size;
  }

  /** Registers an owner held by this process; an owner a live process already holds throws. */
  async register(owner: string): Promise<void> {
    if (!(await this.#transport.addOwner(owner))) throw new ExchangeError(`Owner ${owner} is already registered.`);
  }

  /** Unregisters an owner held here and deletes its mail; returns whether it was held here. */
  async unregister(owner: string): Promise<boolean> {
    return this.#transport.removeOwner(owner);
  }

  /** Whether the owner is registered (by any process sharing this exchange). */
  has(owner: string): Promise<boolean> {
    return this.#transport.hasOwner(owner);
  }

  /** Whether this process holds the owner (may send as it and take its mail). */
  holds(owner: string): Promise<boolean> {
    return this.#transport.holdsOwner(owner);
  }

  ownerIds(): Promise<string[]> {
    return this.#transport.owners();
  }

  /**
   * Delivers a message; `recipient: null` broadcasts to every other registered owner. Resolves once every copy is
   * stored (or, for a broadcast whose writes only partly failed, kept in flight). Direct mail to an unregistered owner
   * is dropped and counted. Throws {@link ExchangeError} for a sender not held here and
   * {@link TransportUnavailableError} when nothing could be stored or older copies of this sender are still stuck.
   */
  async send(
    sender: string,
    recipient: string | null,
    content: string,
    options: { channel?: string } = {},
  ): Promise<ExchangeMessage> {
    if (!(await this.#transport.holdsOwner(sender))) {
      throw new ExchangeError(`Sender ${sender} is not registered by this process.`);
    }
    // Copies of this sender still in flight go first, so per-sender order holds.
    const stuck = await this.collect(sender);
    if (stuck.failed > 0) {
      throw new TransportUnavailableError(`${stuck.failed} earlier copies from ${sender} are still undelivered.`);
    }
    const message: ExchangeMessage = Object.freeze({
      id: randomUUID(),
      sender,
      recipient,
      content,
      channel: options.channel ?? this.#defaultChannel,
      createdAt: this.#now(),
    });
    let targets: string[];
    if (recipient === null) {
      targets = (await this.#transport.owners()).filter((owner) => owner !== sender);
    } else if (await this.#transport.hasOwner(recipient)) {
      targets = [recipient];
    } else {
      this.#dropped += 1;
      return message;
    }
    const deliveries = targets.map((to) => ({ id: `${message.id}:${to}`, to, message }));
    const outcomes = await Promise.allSettled(deliveries.map((delivery) => this.#transport.writeInbox(delivery)));
    const failed = deliveries.filter((_, index) => outcomes[index]?.status === 'rejected');
    if (failed.length > 0 && failed.length === deliveries.length) {
      const first = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
      throw first.reason;
    }
    for (const delivery of failed) this.#inFlight.set(delivery.id, delivery);
    return message;
  }

  /** Retries the in-flight copies of one sender (all senders when omitted); recipients that left are dropped. */
  async collect(sender?: string): Promise<CollectReport> {
    let delivered = 0;
    let dropped = 0;
    let failed = 0;
    for (const delivery of [...this.#inFlight.values()]) {
      if (sender !== undefined && delivery.message.sender !== sender) continue;
      try {
        if (!(await this.#transport.hasOwner(delivery.to))) {
          dropped += 1;
          this.#dropped += 1;
        } else {
          await this.#transport.writeInbox(delivery);
          delivered += 1;
        }
        this.#inFlight.delete(delivery.id);
      } catch {
        failed += 1;
      }
    }
    return { messages: 0, delivered, dropped, failed };
  }

  /** Retries every in-flight copy. */
  collectAll(): Promise<CollectReport> {
    return this.collect();
  }

  /** Retries every in-flight copy (the same as {@link Exchange.collectAll}). */
  drainPending(): Promise<CollectReport> {
    return this.collect();
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

  /** Resolves true once the owner's inbox has mail, false after `timeoutMs` (default 30 s). */
  waitForMail(owner: string, options: { timeoutMs?: number } = {}): Promise<boolean> {
    return this.#transport.waitForMail(owner, options.timeoutMs ?? 30_000);
  }

  /** Lets go of the owners this process holds (they stay registered) and closes the transport. */
  close(): Promise<void> {
    return this.#transport.close();
  }
}
