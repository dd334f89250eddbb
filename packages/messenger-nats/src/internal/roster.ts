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

  /** Starts the watcher and resolves once the local copy has caught up with the stream. */
  async watch(): Promise<void> {
    const info = await this.#jsm.streams.info(this.#ns.rosterStream);
    const consumer = await this.#js.consumers.get(this.#ns.rosterStream, {
      filter_subjects: this.#ns.rosters,
      deliver_policy: DeliverPolicy.LastPerSubject,
    });
    const messages = await consumer.consume();
    this.#stop = () => bounded(messages.close(), 1_000);
    let caughtUp: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      caughtUp = resolve;
    });
    if (info.state.messages === 0) caughtUp();
    void (async () => {
      for await (const message of messages) {
        const entry = parse(message.data);
        if (entry?.removed) this.#cache.delete(entry.owner);
        else if (entry) this.#cache.set(entry.owner, entry);
        if (message.info.pending === 0) caughtUp();
      }
    })().catch(() => {});
    await ready;
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
