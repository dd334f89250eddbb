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
  /** Armed by an unversioned publish: the answer is taken once the server has been quiet this long. */
  quiet?: NodeJS.Timeout;
}

/**
 * What each document's latest `publishDiagnostics` said, and callers waiting for a given version. A server that sends
 * `version` is taken at its word; one that does not (the protocol makes it optional) is assumed to have checked the
 * latest version sent to it, which is the best a client can know.
 */
export class DiagnosticStore {
  readonly #settleMs: number;
  readonly #latest = new Map<string, PublishedDiagnostics>();
  readonly #waiters = new Map<string, Waiter[]>();
  #epoch = 0;
  #lastPublishAt = 0;

  /**
   * `settleMs`: after a publish without a version, how long the server must stay quiet before it is taken as the
   * answer (typescript-language-server publishes syntax and semantic diagnostics one after the other, unversioned).
   */
  constructor(settleMs: number) {
    this.#settleMs = settleMs;
  }

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
    this.#lastPublishAt = Date.now();
    const waiting = this.#waiters.get(uri) ?? [];
    const still = waiting.filter((waiter) => {
      if (waiter.version > entry.version || waiter.epoch > entry.epoch) return true;
      if (!entry.versioned) {
        clearTimeout(waiter.quiet);
        waiter.quiet = setTimeout(() => this.#release(uri, waiter), this.#settleMs);
        return true;
      }
      this.#release(uri, waiter);
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
    if (known?.versioned && known.version >= version && known.epoch >= epoch) return Promise.resolve(known);
    return new Promise((settle) => {
      const waiter: Waiter = {
        version,
        epoch,
        settle,
        // At the end of the wait, a publish still settling is the answer; none at all is undefined.
        timer: setTimeout(() => {
          const got = this.#latest.get(uri);
          this.#release(uri, waiter, waiter.quiet && got ? got : undefined);
        }, waitMs),
      };
      const list = this.#waiters.get(uri) ?? [];
      list.push(waiter);
      this.#waiters.set(uri, list);
      // An unversioned publish that already answers still gets its quiet period.
      if (known && known.version >= version && known.epoch >= epoch)
        waiter.quiet = setTimeout(() => this.#release(uri, waiter), this.#settleMs);
    });
  }

  #release(uri: string, waiter: Waiter, value = this.#latest.get(uri)): void {
    clearTimeout(waiter.timer);
    clearTimeout(waiter.quiet);
    const list = (this.#waiters.get(uri) ?? []).filter((other) => other !== waiter);
    if (list.length > 0) this.#waiters.set(uri, list);
    else this.#waiters.delete(uri);
    waiter.settle(value);
  }

  /**
   * Resolves true once no publish has arrived for `quietMs`, or false when `maxMs` passed first: a server publishes
   * the files a change affects in one pass, so a quiet pause after it means that pass is done.
   */
  async quiet(quietMs: number, maxMs: number): Promise<boolean> {
    const end = Date.now() + maxMs;
    for (;;) {
      const left = this.#lastPublishAt + quietMs - Date.now();
      if (left <= 0) return true;
      if (Date.now() + left > end) {
        await new Promise((settle) => setTimeout(settle, Math.max(0, end - Date.now())));
        return this.#lastPublishAt + quietMs <= Date.now();
      }
      await new Promise((settle) => setTimeout(settle, left));
    }
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
        clearTimeout(waiter.quiet);
        waiter.settle(undefined);
      }
    this.#waiters.clear();
  }
}
