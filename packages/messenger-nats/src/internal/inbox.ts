import type { ExchangeMessage, InboxQuery } from '@bough/messenger';
import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { bounded, brokerError } from './failures.js';

interface Buffered {
  readonly message: ExchangeMessage;
  handle: JsMsg;
}

const decoder = new TextDecoder();

function parse(data: Uint8Array): ExchangeMessage | undefined {
  try {
    const value = JSON.parse(decoder.decode(data)) as ExchangeMessage;
    const ok =
      typeof value.id === 'string' &&
      typeof value.sender === 'string' &&
      (value.recipient === null || typeof value.recipient === 'string') &&
      typeof value.content === 'string' &&
      typeof value.channel === 'string' &&
      typeof value.createdAt === 'number';
    return ok ? Object.freeze(value) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The inbox of one owner held by this process: a durable pull consumer feeds a local buffer (stream order). A take
 * first stores a hand-over record with the taken ids, then acknowledges them, so a message the broker offers again
 * (lost ack, restart) is recognised and dropped: each message is handed over at most once.
 */
export class HeldInbox {
  readonly #buffer: Buffered[] = [];
  readonly #seen: Set<string>;
  readonly #seenCap: number;
  readonly #waiters = new Set<() => void>();
  #messages: ConsumerMessages | undefined;
  #lock: Promise<unknown> = Promise.resolve();

  constructor(seen: Iterable<string>, seenCap: number) {
    this.#seen = new Set(seen);
    this.#seenCap = seenCap;
  }

  /** Starts feeding the buffer from the consumer's messages. */
  start(messages: ConsumerMessages): void {
    this.#messages = messages;
    void (async () => {
      for await (const handle of messages) this.#offer(handle);
    })().catch(() => {});
  }

  #offer(handle: JsMsg): void {
    const message = parse(handle.data);
    if (!message || this.#seen.has(message.id)) {
      handle.ack();
      return;
    }
    const present = this.#buffer.find((entry) => entry.message.id === message.id);
    if (present) {
      present.handle = handle;
      return;
    }
    this.#buffer.push({ message, handle });
    for (const wake of this.#waiters) wake();
  }

  /** Buffered messages matching the query, oldest first. */
  read(query: InboxQuery = {}): ExchangeMessage[] {
    return this.#select(query).map((entry) => entry.message);
  }

  #select(query: InboxQuery): Buffered[] {
    const limit = query.limit ?? Number.POSITIVE_INFINITY;
    const out: Buffered[] = [];
    for (const entry of this.#buffer) {
      if (out.length >= limit) break;
      if (query.sender === undefined || entry.message.sender === query.sender) out.push(entry);
    }
    return out;
  }

  /** Takes matching messages: records the hand-over on `seenSubject`, then acknowledges them. One take at a time. */
  take(js: JetStreamClient, seenSubject: string, query: InboxQuery, timeoutMs: number): Promise<ExchangeMessage[]> {
    const run = this.#lock.then(async () => {
      const chosen = this.#select(query);
      if (chosen.length === 0) return [];
      const ids = chosen.map((entry) => entry.message.id);
      try {
        await js.publish(seenSubject, JSON.stringify(ids), { timeout: timeoutMs });
      } catch (error) {
        throw brokerError(error, 'recording a hand-over');
      }
      for (const entry of chosen) {
        this.#remember(entry.message.id);
        this.#buffer.splice(this.#buffer.indexOf(entry), 1);
        entry.handle.ack();
      }
      return chosen.map((entry) => entry.message);
    });
    this.#lock = run.catch(() => {});
    return run;
  }

  #remember(id: string): void {
    this.#seen.add(id);
    if (this.#seen.size > this.#seenCap) {
      const oldest = this.#seen.values().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
  }

  /** True once the buffer is not empty, false after `timeoutMs`. */
  wait(timeoutMs: number): Promise<boolean> {
    if (this.#buffer.length > 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve(this.#buffer.length > 0);
      };
      const timer = setTimeout(wake, timeoutMs);
      this.#waiters.add(wake);
    });
  }

  /** Tells the broker the buffered messages are still being held (resets their redelivery timer). */
  touch(): void {
    for (const entry of this.#buffer) entry.handle.working();
  }

  /** Stops the consumer and gives the buffered messages back to the broker at once, for the next holder. */
  async stop(): Promise<void> {
    if (this.#messages) await bounded(this.#messages.close(), 1_000);
    for (const entry of this.#buffer) entry.handle.nak();
    this.#buffer.length = 0;
    for (const wake of this.#waiters) wake();
  }
}
