/** Settings of a {@link DocumentCache}. */
export interface DocumentCacheOptions {
  /** How long an entry stays valid, in milliseconds (default 300,000). */
  ttlMs?: number;
  /** Entries kept; the least recently stored is dropped first (default 32). */
  maxEntries?: number;
  /** Clock in milliseconds, injectable for tests (default `Date.now`). */
  now?: () => number;
}

interface Entry {
  text: string;
  fingerprint: string;
  expires: number;
}

/**
 * Converted document text keyed by resolved real path (or checked URL). Callers must check the path first; an entry
 * also carries a fingerprint (size and mtime) so a changed file is converted again, and expires after `ttlMs`.
 */
export class DocumentCache {
  readonly ttlMs: number;
  readonly maxEntries: number;
  private readonly now: () => number;
  private readonly entries = new Map<string, Entry>();

  constructor(options: DocumentCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 300_000;
    this.maxEntries = options.maxEntries ?? 32;
    this.now = options.now ?? Date.now;
  }

  /** The cached text for `key` when it is fresh and was stored with the same fingerprint. */
  get(key: string, fingerprint: string): string | undefined {
    this.evictExpired();
    const entry = this.entries.get(key);
    if (!entry || entry.fingerprint !== fingerprint) return undefined;
    return entry.text;
  }

  /** Stores converted text; a zero TTL disables caching. */
  set(key: string, fingerprint: string, text: string): void {
    if (this.ttlMs <= 0 || this.maxEntries <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { text, fingerprint, expires: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** Number of live entries. */
  get size(): number {
    this.evictExpired();
    return this.entries.size;
  }

  /** Drops every entry. */
  clear(): void {
    this.entries.clear();
  }

  private evictExpired(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
  }
}
