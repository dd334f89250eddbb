import type { Delivery, ExchangeMessage, ExchangeTransport, InboxQuery } from './exchange-transport.js';

interface Boxes {
  outbox: ExchangeMessage[];
  inbox: ExchangeMessage[];
}

/** The default {@link ExchangeTransport}: plain maps in this process, nothing persisted. */
export class InMemoryTransport implements ExchangeTransport {
  readonly #boxes = new Map<string, Boxes>();
  readonly #inFlight = new Map<string, Delivery>();

  async addOwner(owner: string): Promise<boolean> {
    if (this.#boxes.has(owner)) return false;
    this.#boxes.set(owner, { outbox: [], inbox: [] });
    return true;
  }

  async removeOwner(owner: string): Promise<boolean> {
    return this.#boxes.delete(owner);
  }

  async hasOwner(owner: string): Promise<boolean> {
    return this.#boxes.has(owner);
  }

  async owners(): Promise<string[]> {
    return [...this.#boxes.keys()];
  }

  async enqueue(owner: string, message: ExchangeMessage): Promise<void> {
    this.#box(owner).outbox.push(message);
  }

  async takeOutbox(owner: string): Promise<ExchangeMessage[]> {
    const box = this.#box(owner);
    const taken = box.outbox;
    box.outbox = [];
    return taken;
  }

  async stage(deliveries: readonly Delivery[]): Promise<void> {
    for (const delivery of deliveries) this.#inFlight.set(delivery.id, delivery);
  }

  async pending(): Promise<Delivery[]> {
    return [...this.#inFlight.values()];
  }

  async writeInbox(delivery: Delivery): Promise<void> {
    const box = this.#boxes.get(delivery.to);
    if (!box) throw new Error(`Owner ${delivery.to} has no inbox.`);
    if (box.inbox.some((message) => message.id === delivery.message.id)) return;
    // Keep the inbox in send-time order (ties keep arrival order), so FIFO means oldest sent first.
    let at = box.inbox.length;
    while (at > 0 && (box.inbox[at - 1] as ExchangeMessage).createdAt > delivery.message.createdAt) at -= 1;
    box.inbox.splice(at, 0, delivery.message);
  }

  async settle(deliveryId: string): Promise<void> {
    this.#inFlight.delete(deliveryId);
  }

  async readInbox(owner: string, query: InboxQuery = {}): Promise<ExchangeMessage[]> {
    const box = this.#boxes.get(owner);
    if (!box) return [];
    return select(box.inbox, query).map(({ message }) => message);
  }

  async takeInbox(owner: string, query: InboxQuery = {}): Promise<ExchangeMessage[]> {
    const box = this.#boxes.get(owner);
    if (!box) return [];
    const chosen = select(box.inbox, query);
    const drop = new Set(chosen.map(({ index }) => index));
    box.inbox = box.inbox.filter((_, index) => !drop.has(index));
    return chosen.map(({ message }) => message);
  }

  #box(owner: string): Boxes {
    const box = this.#boxes.get(owner);
    if (!box) throw new Error(`Owner ${owner} is not registered on this exchange.`);
    return box;
  }
}

function select(inbox: readonly ExchangeMessage[], query: InboxQuery): { message: ExchangeMessage; index: number }[] {
  const out: { message: ExchangeMessage; index: number }[] = [];
  const limit = query.limit ?? Number.POSITIVE_INFINITY;
  for (const [index, message] of inbox.entries()) {
    if (out.length >= limit) break;
    if (query.sender === undefined || message.sender === query.sender) out.push({ message, index });
  }
  return out;
}
