import { DeliverPolicy, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { bounded, brokerError, isConflict } from './failures.js';
import type { Namespace } from './names.js';

/** One owner's roster record: who holds it and when the holder last said it is alive (its clock, ms). */
export interface RosterEntry {
  readonly owner: string;
  readonly holder: string;
  readonly renewedAt: number;
  readonly removed?: true;
}

const decoder = new TextDecoder();

function parse(data: Uint8Array): RosterEntry | undefined {
  try {
    const value = JSON.parse(decoder.decode(data)) as RosterEntry;
    return typeof value.owner === 'string' && typeof value.holder === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The shared roster: one record per owner on a per-subject-limited stream (latest record only), written with
 * revision checks so exactly one process wins a claim. A watcher keeps a local copy for `owners()`.
 */
export class Roster {
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;
  readonly #ns: Namespace;
  readonly #leaseMs: number;
  readonly #timeoutMs: number;
  readonly #cache = new Map<string, RosterEntry>();
  #stop: (() => Promise<void>) | undefined;

  constructor(js: JetStreamClient, jsm: JetStreamManager, ns: Namespace, leaseMs: number, timeoutMs: number) {
    this.#js = js;
    this.#jsm = jsm;
    this.#ns = ns;
    this.#leaseMs = leaseMs;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Starts the watcher and resolves once the local copy has caught up with the stream. The watcher is handed each
   * owner's latest record as of its creation, then every record after; the stream's last sequence is read once it
   * exists, so having been handed that sequence (or a later one) means every record up to it was seen. Live holders
   * renew their records every few hundred milliseconds, so "nothing pending" alone may never be seen by a watcher
   * that lags a record behind. Fails (as an outage) when the watch ends or has not caught up within the request
   * timeout.
   */
  async watch(): Promise<void> {
    const consumer = await this.#js.consumers.get(this.#ns.rosterStream, {
      filter_subjects: this.#ns.rosters,
      deliver_policy: DeliverPolicy.LastPerSubject,
    });
    const messages = await consumer.consume();
    this.#stop = () => bounded(messages.close(), 1_000);
    let settle: (error?: unknown) => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    let lastSeq = Number.POSITIVE_INFINITY;
    let handed = 0;
    void (async () => {
      for await (const message of messages) {
        const entry = parse(message.data);
        if (entry?.removed) this.#cache.delete(entry.owner);
        else if (entry) this.#cache.set(entry.owner, entry);
        handed = Math.max(handed, message.seq);
        if (handed >= lastSeq || message.info.pending === 0) settle();
      }
      settle(new Error('the roster watch ended before it caught up'));
    })().catch(settle);
    try {
      const info = await this.#jsm.streams.info(this.#ns.rosterStream);
      lastSeq = info.state.last_seq;
      if (info.state.messages === 0 || handed >= lastSeq) settle();
    } catch (error) {
      settle(error);
    }
    const timer = setTimeout(
      () => settle(new Error(`the roster did not load within ${this.#timeoutMs} ms`)),
      this.#timeoutMs,
    );
    try {
      await ready;
    } catch (error) {
      await this.close();
      throw brokerError(error, 'loading the roster');
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether a record is a live claim (not removed, renewed within the lease). */
  live(entry: RosterEntry | undefined): boolean {
    return entry !== undefined && !entry.removed && entry.renewedAt + this.#leaseMs > Date.now();
  }

  /** Owners in the local copy. */
  cached(): string[] {
    return [...this.#cache.keys()];
  }

  /** Whether the local copy has the owner registered. */
  cachedHas(owner: string): boolean {
    return this.#cache.has(owner);
  }

  /** The owner's latest record from the broker itself, with its revision (0 when there is none). */
  async read(owner: string): Promise<{ entry: RosterEntry | undefined; revision: number }> {
    try {
      const stored = await this.#jsm.streams.getMessage(this.#ns.rosterStream, {
        last_by_subj: this.#ns.roster(owner),
      });
      if (!stored) return { entry: undefined, revision: 0 };
      const entry = parse(stored.data);
      if (entry?.removed) this.#cache.delete(owner);
      else if (entry) this.#cache.set(owner, entry);
      return { entry, revision: stored.seq };
    } catch (error) {
      throw brokerError(error, 'reading the roster');
    }
  }

  /** Writes a record if the owner's revision is still `revision`; the new revision, or undefined on a lost race. */
  async write(entry: RosterEntry, revision: number): Promise<number | undefined> {
    try {
      const ack = await this.#js.publish(this.#ns.roster(entry.owner), JSON.stringify(entry), {
        expect: { lastSubjectSequence: revision },
        timeout: this.#timeoutMs,
      });
      if (entry.removed) this.#cache.delete(entry.owner);
      else this.#cache.set(entry.owner, entry);
      return ack.seq;
    } catch (error) {
      if (isConflict(error)) return undefined;
      throw brokerError(error, 'writing the roster');
    }
  }

  /** Stops the watcher. */
  async close(): Promise<void> {
    await this.#stop?.().catch(() => {});
  }
}
