import type { Diagnostic } from 'vscode-languageserver-protocol/node';

/** Diagnostics a server published for one document, and the document version they belong to. */
export interface PublishedDiagnostics {
  readonly version: number;
  readonly diagnostics: readonly Diagnostic[];
  /** False when the server did not say which version it checked and the client assumed the latest one sent. */
  readonly versioned: boolean;
  /** The store's change count when it arrived: publishes older than the latest change may predate its effects. */
  readonly epoch: number;
}

interface Waiter {
  readonly version: number;
  readonly epoch: number;
  readonly settle: (value: PublishedDiagnostics | undefined) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * What each document's latest `publishDiagnostics` said, and callers waiting for a given version. A server that sends
 * `version` is taken at its word; one that does not (the protocol makes it optional) is assumed to have checked the
 * latest version sent to it, which is the best a client can know.
 */
export class DiagnosticStore {
  readonly #latest = new Map<string, PublishedDiagnostics>();
  readonly #waiters = new Map<string, Waiter[]>();
  #epoch = 0;

  /** How many changes (edits sent, external writes reported) the server has been told of. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Counts a change that may alter any document's diagnostics (an edit of another file, a write on disk). */
  bump(): void {
    this.#epoch++;
  }

  /** A new version was sent: diagnostics of older versions no longer answer for it. */
  expect(uri: string, version: number): void {
    const known = this.#latest.get(uri);
    if (known && known.version > version) this.#latest.delete(uri);
  }

  /** Records a publish; `openVersion` is the version the client last sent, used when the server gave none. */
  publish(
    uri: string,
    version: number | undefined,
    openVersion: number | undefined,
    diagnostics: readonly Diagnostic[],
  ): void {
    const entry: PublishedDiagnostics = {
      version: version ?? openVersion ?? 0,
      diagnostics,
      versioned: version !== undefined,
      epoch: this.#epoch,
    };
    this.#latest.set(uri, entry);
    const waiting = this.#waiters.get(uri) ?? [];
    const still = waiting.filter((waiter) => {
      if (waiter.version > entry.version || waiter.epoch > entry.epoch) return true;
      clearTimeout(waiter.timer);
      waiter.settle(entry);
      return false;
    });
    if (still.length > 0) this.#waiters.set(uri, still);
    else this.#waiters.delete(uri);
  }

  /**
   * The diagnostics of `version` (or a newer one) once published, received no earlier than change `epoch`; undefined
   * after `waitMs` or when the server ends.
   */
  waitFor(uri: string, version: number, waitMs: number, epoch = 0): Promise<PublishedDiagnostics | undefined> {
    const known = this.#latest.get(uri);
    if (known && known.version >= version && known.epoch >= epoch) return Promise.resolve(known);
    return new Promise((settle) => {
      const timer = setTimeout(() => {
        const list = this.#waiters.get(uri) ?? [];
        this.#waiters.set(
          uri,
          list.filter((waiter) => waiter.timer !== timer),
        );
        settle(undefined);
      }, waitMs);
      const list = this.#waiters.get(uri) ?? [];
      list.push({ version, epoch, settle, timer });
      this.#waiters.set(uri, list);
    });
  }

  /** The latest publish for a document, of whatever version. */
  latest(uri: string): PublishedDiagnostics | undefined {
    return this.#latest.get(uri);
  }

  /** Every document's latest publish. */
  all(): ReadonlyMap<string, PublishedDiagnostics> {
    return this.#latest;
  }

  /** Forgets a closed document. */
  forget(uri: string): void {
    this.#latest.delete(uri);
  }

  /** Releases every waiter with no answer (the server ended). */
  endAll(): void {
    for (const list of this.#waiters.values())
      for (const waiter of list) {
        clearTimeout(waiter.timer);
        waiter.settle(undefined);
      }
    this.#waiters.clear();
  }
}
