import type { Delivery, ExchangeMessage, ExchangeTransport, InboxQuery } from './exchange-transport.js';

interface Inbox {
  messages: ExchangeMessage[];
  /** Delivery ids written, so a retried write keeps one copy. */
  written: Set<string>;
  waiters: Set<() => void>;
}

/** The default {@link ExchangeTransport}: plain maps in this process (which holds every owner), nothing persisted. */
export class InMemoryTransport implements ExchangeTransport {
  readonly #inboxes = new Map<string, Inbox>();

  async addOwner(owner: string): Promise<boolean> {
    if (this.#inboxes.has(owner)) return false;
    this.#inboxes.set(owner, { messages: [], written: new Set(), waiters: new Set() });
    return true;
  }

  async removeOwner(owner: string): Promise<boolean> {
    const inbox = this.#inboxes.get(owner);
    if (!inbox) return false;
    this.#inboxes.delete(owner);
    for (const wake of inbox.waiters) wake();
    return true;
  }

  async hasOwner(owner: string): Promise<boolean> {
    return this.#inboxes.has(owner);
  }

  async holdsOwner(owner: string): Promise<boolean> {
    return this.#inboxes.has(owner);
  }

  async owners(): Promise<string[]> {
    return [...this.#inboxes.keys()];
  }

  async writeInbox(delivery: Delivery): Promise<void> {
    const inbox = this.#inboxes.get(delivery.to);
    if (!inbox) throw new Error(`Owner ${delivery.to} has no inbox.`);
    if (inbox.written.has(delivery.id)) return;
    inbox.written.add(delivery.id);
    inbox.messages.push(delivery.message);
    for (const wake of inbox.waiters) wake();
  }

  async readInbox(owner: string, query: InboxQuery = {}): Promise<ExchangeMessage[]> {
    const inbox = this.#inboxes.get(owner);
    if (!inbox) return [];
    return select(inbox.messages, query).map(({ message }) => message);
  }

  async takeInbox(owner: string, query: InboxQuery = {}): Promise<ExchangeMessage[]> {
    const inbox = this.#inboxes.get(owner);
    if (!inbox) return [];
    const chosen = select(inbox.messages, query);
    const drop = new Set(chosen.map(({ index }) => index));
    inbox.messages = inbox.messages.filter((_, index) => !drop.has(index));
    return chosen.map(({ message }) => message);
  }

  async waitForMail(owner: string, timeoutMs: number): Promise<boolean> {
    const inbox = this.#inboxes.get(owner);
    if (!inbox) return false;
    if (inbox.messages.length > 0) return true;
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        inbox.waiters.delete(wake);
        resolve(inbox.messages.length > 0);
      };
      const timer = setTimeout(wake, timeoutMs);
      inbox.waiters.add(wake);
    });
  }

  async close(): Promise<void> {}
}

/** The messages matching a query, oldest first, with their positions. */
export function select(
  inbox: readonly ExchangeMessage[],
  query: InboxQuery,
): { message: ExchangeMessage; index: number }[] {
  const out: { message: ExchangeMessage; index: number }[] = [];
  const limit = query.limit ?? Number.POSITIVE_INFINITY;
  for (const [index, message] of inbox.entries()) {
    if (out.length >= limit) break;
    if (query.sender === undefined || message.sender === query.sender) out.push({ message, index });
  }
  return out;
}
