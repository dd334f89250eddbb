import { randomUUID } from 'node:crypto';
import {
  type Delivery,
  type ExchangeMessage,
  type ExchangeTransport,
  type InboxQuery,
  TransportUnavailableError,
} from '@bough/messenger';
import {
  AckPolicy,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { bounded, brokerError, isMissing } from './internal/failures.js';
import { HeldInbox } from './internal/inbox.js';
import { checkOwner, type Namespace } from './internal/names.js';
import { Roster } from './internal/roster.js';
import { ensureStreams } from './internal/streams.js';
import type { NatsExchangeLimits } from './limits.js';

interface Held {
  revision: number;
  readonly inbox: HeldInbox;
  /** Serialises roster writes of this owner (heartbeats, release, removal). */
  lock: Promise<unknown>;
}

/**
 * An {@link ExchangeTransport} on NATS JetStream: one exchange name is one roster stream, one mail stream (an inbox
 * subject per owner, a durable consumer per owner) and one hand-over stream. Build it with `openNatsExchange`.
 */
export class NatsTransport implements ExchangeTransport {
  readonly #nc: NatsConnection;
  readonly #ownsConnection: boolean;
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;
  readonly #ns: Namespace;
  readonly #limits: NatsExchangeLimits;
  readonly #roster: Roster;
  readonly #held = new Map<string, Held>();
  /** This process's identity in roster records. */
  readonly holder = randomUUID();
  #connected = true;
  #closed = false;
  readonly #heartbeat: NodeJS.Timeout;

  /** @internal Use `openNatsExchange`. */
  constructor(
    nc: NatsConnection,
    ownsConnection: boolean,
    jsm: JetStreamManager,
    ns: Namespace,
    limits: NatsExchangeLimits,
  ) {
    this.#nc = nc;
    this.#ownsConnection = ownsConnection;
    this.#jsm = jsm;
    this.#js = jetstream(nc, { timeout: limits.requestTimeoutMs });
    this.#ns = ns;
    this.#limits = limits;
    this.#roster = new Roster(this.#js, jsm, ns, limits.leaseMs, limits.requestTimeoutMs);
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'disconnect') this.#connected = false;
        if (status.type === 'reconnect') this.#connected = true;
      }
    })().catch(() => {});
    this.#heartbeat = setInterval(() => void this.#renewAll(), Math.max(50, Math.floor(limits.leaseMs / 3)));
    this.#heartbeat.unref();
  }

  /** @internal Creates missing streams and loads the roster. */
  static async start(nc: NatsConnection, ownsConnection: boolean, ns: Namespace, limits: NatsExchangeLimits) {
    const jsm = await jetstreamManager(nc, { timeout: limits.requestTimeoutMs });
    await ensureStreams(jsm, ns, limits);
    const transport = new NatsTransport(nc, ownsConnection, jsm, ns, limits);
    await transport.#roster.watch();
    return transport;
  }

  #up(what: string): void {
    if (this.#closed) throw new TransportUnavailableError(`The NATS transport is closed (${what}).`);
    if (!this.#connected || this.#nc.isClosed()) {
      throw new TransportUnavailableError(`The NATS broker is unreachable; reconnecting (${what}).`);
    }
  }

  async addOwner(owner: string): Promise<boolean> {
    checkOwner(owner, this.#limits);
    this.#up('registering');
    if (this.#held.has(owner)) return false;
    const { entry, revision } = await this.#roster.read(owner);
    if (this.#roster.live(entry) && entry?.holder !== this.holder) return false;
    // The consumer exists before the claim is visible, so nothing sent after it is missed.
    await this.#ensureConsumer(owner);
    const claimed = await this.#roster.write({ owner, holder: this.holder, renewedAt: Date.now() }, revision);
    if (claimed === undefined) return false;
    const inbox = new HeldInbox(await this.#loadSeen(owner), Math.max(2 * this.#limits.maxBuffered, 1_000));
    this.#held.set(owner, { revision: claimed, inbox, lock: Promise.resolve() });
    try {
      const consumer = await this.#js.consumers.get(this.#ns.mailStream, this.#ns.consumer(owner));
      inbox.start(await consumer.consume({ max_messages: 256 }));
    } catch (error) {
      this.#held.delete(owner);
      throw brokerError(error, 'opening the inbox');
    }
    return true;
  }

  async #ensureConsumer(owner: string): Promise<void> {
    const config = {
      durable_name: this.#ns.consumer(owner),
      filter_subject: this.#ns.inbox(owner),
      ack_policy: AckPolicy.Explicit,
      ack_wait: this.#limits.ackWaitMs * 1_000_000,
      max_ack_pending: this.#limits.maxBuffered,
    };
    try {
      const existing = await this.#jsm.consumers.info(this.#ns.mailStream, config.durable_name).catch((error) => {
        if (isMissing(error)) return undefined;
        throw error;
      });
      if (existing && existing.num_ack_pending === 0) return;
      if (existing) {
        // A previous holder died with mail buffered: start again from the first unacknowledged message, so the
        // new holder gets it at once and in order (messages acknowledged after it are in the hand-over records).
        await this.#jsm.consumers.delete(this.#ns.mailStream, config.durable_name);
        await this.#jsm.consumers.add(this.#ns.mailStream, {
          ...config,
          deliver_policy: DeliverPolicy.StartSequence,
          opt_start_seq: existing.ack_floor.stream_seq + 1,
        });
        return;
      }
      await this.#jsm.consumers.add(this.#ns.mailStream, { ...config, deliver_policy: DeliverPolicy.All });
    } catch (error) {
      throw brokerError(error, 'creating the inbox consumer');
    }
  }

  async #loadSeen(owner: string): Promise<string[]> {
    const subject = this.#ns.seen(owner);
    try {
      const last = await this.#jsm.streams.getMessage(this.#ns.seenStream, { last_by_subj: subject });
      if (!last) return [];
      const consumer = await this.#js.consumers.get(this.#ns.seenStream, {
        filter_subjects: subject,
        deliver_policy: DeliverPolicy.All,
      });
      const ids: string[] = [];
      // A bounded fetch (not consume) so nothing keeps running once the records are read.
      const messages = await consumer.fetch({ max_messages: this.#limits.seenRecords, expires: 5_000 });
      for await (const message of messages) {
        ids.push(...(message.json() as string[]));
        if (message.seq >= last.seq || message.info.pending === 0) break;
      }
      await consumer.delete().catch(() => false);
      return ids;
    } catch (error) {
      throw brokerError(error, 'loading hand-over records');
    }
  }

  async removeOwner(owner: string): Promise<boolean> {
    const held = this.#held.get(owner);
    if (!held) return false;
    this.#up('unregistering');
    const removed = await this.#withLock(held, async () => {
      const revision = await this.#roster.write(
        { owner, holder: this.holder, renewedAt: 0, removed: true },
        held.revision,
      );
      return revision !== undefined;
    });
    this.#held.delete(owner);
    await held.inbox.stop();
    if (!removed) return false;
    try {
      await this.#jsm.consumers.delete(this.#ns.mailStream, this.#ns.consumer(owner)).catch(() => false);
      await this.#jsm.streams.purge(this.#ns.mailStream, { filter: this.#ns.inbox(owner) });
      await this.#jsm.streams.purge(this.#ns.seenStream, { filter: this.#ns.seen(owner) });
    } catch (error) {
      throw brokerError(error, 'deleting mail');
    }
    return true;
  }

  async hasOwner(owner: string): Promise<boolean> {
    if (this.#held.has(owner) || this.#roster.cachedHas(owner)) return true;
    // Not in the local copy: it may have registered a moment ago, so ask the broker before calling it unknown.
    this.#up('looking up an owner');
    const { entry } = await this.#roster.read(owner);
    return entry !== undefined && !entry.removed;
  }

  async holdsOwner(owner: string): Promise<boolean> {
    return this.#held.has(owner);
  }

  async owners(): Promise<string[]> {
    return this.#roster.cached();
  }

  async writeInbox(delivery: Delivery): Promise<void> {
    this.#up('sending');
    try {
      await this.#js.publish(this.#ns.inbox(delivery.to), JSON.stringify(delivery.message), {
        msgID: delivery.id,
        timeout: this.#limits.requestTimeoutMs,
      });
    } catch (error) {
      throw brokerError(error, 'sending');
    }
  }

  async readInbox(owner: string, query: InboxQuery = {}): Promise<ExchangeMessage[]> {
    return this.#held.get(owner)?.inbox.read(query) ?? [];
  }

  async takeInbox(owner: string, query: InboxQuery = {}): Promise<ExchangeMessage[]> {
    const held = this.#held.get(owner);
    if (!held) return [];
    if (held.inbox.read({ ...query, limit: 1 }).length === 0) return [];
    this.#up('taking mail');
    return held.inbox.take(this.#js, this.#ns.seen(owner), query, this.#limits.requestTimeoutMs);
  }

  async waitForMail(owner: string, timeoutMs: number): Promise<boolean> {
    const held = this.#held.get(owner);
    return held ? held.inbox.wait(timeoutMs) : false;
  }

  #withLock<T>(held: Held, work: () => Promise<T>): Promise<T> {
    const run = held.lock.then(work);
    held.lock = run.catch(() => {});
    return run;
  }

  async #renewAll(): Promise<void> {
    if (this.#closed || !this.#connected) return;
    for (const [owner, held] of this.#held) {
      await this.#withLock(held, async () => {
        const revision = await this.#roster.write({ owner, holder: this.holder, renewedAt: Date.now() }, held.revision);
        if (revision !== undefined) {
          held.revision = revision;
          held.inbox.touch();
          return;
        }
        // Another process took the name over (this one was cut off past its lease): stop reading its mail.
        this.#held.delete(owner);
        await held.inbox.stop();
      }).catch(() => {});
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    for (const [owner, held] of this.#held) {
      await held.inbox.stop();
      // Release the claim (renewedAt 0) so a restarted process can take the name at once; mail is kept.
      if (this.#connected) {
        await this.#withLock(held, () =>
          this.#roster.write({ owner, holder: this.holder, renewedAt: 0 }, held.revision),
        ).catch(() => {});
      }
    }
    this.#held.clear();
    await this.#roster.close();
    if (this.#ownsConnection) await bounded(this.#nc.close(), 2_000);
  }
}
