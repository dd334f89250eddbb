import { type BranchView, isActionResponse, isToolFailure } from '@bough/core';

/** Lines a read showed, as evidence that those lines were seen: `null` marks a line shown cut short (not evidence). */
export interface ReadWindow {
  /** 1-based number of the first line shown. */
  readonly startLine: number;
  /** The text of each shown line without its line ending; `null` where the reader cut the line. */
  readonly lines: readonly (string | null)[];
  /** The call whose response showed these lines. */
  readonly callId: string;
}

/** What this branch last saw of one file: whole-content digests, line windows, and the calls that carry them. */
export interface FileStateEntry {
  /** Real absolute path. */
  readonly path: string;
  /** sha256 (hex) of the whole file as most recently read or written, when one was known. */
  readonly sha256: string | undefined;
  /** Every whole-file digest still backed by a live call (a file may have been read at several versions). */
  readonly digests: ReadonlySet<string>;
  /** Line windows shown by live reads, newest last. */
  readonly windows: readonly ReadWindow[];
  /**
   * Stamps (device, inode, size, mtime, ctime) a live read confirmed the file had while it was read: the file still
   * carrying one is unchanged since that read, as a matching digest would show, without hashing it.
   */
  readonly stamps: ReadonlySet<string>;
  /** Call ids of the reader/editor responses that carry this evidence. */
  readonly evidence: ReadonlySet<string>;
  /** Whether the latest evidence came from a read or from the toolkit's own write. */
  readonly source: 'read' | 'write';
}

interface Entry {
  /** digest -> the calls that showed that whole content. */
  digests: Map<string, Set<string>>;
  latest: string | undefined;
  windows: ReadWindow[];
  /** stamp -> the reads that confirmed it. */
  stamps: Map<string, Set<string>>;
  source: 'read' | 'write';
  /** The branch generation this entry was last pruned at (see `FileState.#generation`). */
  prunedAt: number;
}

/**
 * Read-before-edit state of one toolkit build. Evidence is kept per call: a digest of the whole file (from a read
 * that scanned it or from the toolkit's own write), the lines a read window showed, or the stamp a file kept
 * through a read of it (big files the reader does not hash). Evidence lives only while its
 * call is still in the branch's active view (or its response has not been appended yet); evict, compact and
 * evict_action_results therefore drop read- and write-derived evidence alike.
 */
export class FileState {
  readonly #entries = new Map<string, Entry>();
  /** Calls recorded by a handler whose action_response has not reached the branch yet. */
  readonly #pending = new Set<string>();
  readonly #maxWindows: number;
  readonly #maxFiles: number;
  /** `#pending` is swept of ids no entry refers to once it grows past this (amortized, see `#sweepPending`). */
  #sweepAt = 1024;
  /**
   * Set once a response to a recorded call reaches the branch. Until then the branch may never record calls (an MCP
   * server appends no messages), so nothing would ever leave the active view: a new whole-file digest or stamp of a
   * file then supersedes the older ones instead of piling up beside them. Dropping evidence only makes the guard
   * stricter.
   */
  #responsesSeen = false;
  #branch: BranchView | undefined;
  /**
   * Counts the branch events (and forgets) seen so far. Evidence only dies when the branch tells us something (a call
   * left the active view, a response landed or was replaced), so an entry pruned at the current generation needs no
   * second pass: ids recorded since are pending, hence alive. Without it every guarded edit walked every call id ever
   * recorded for the file (an MCP server, which appends no messages, never drops one).
   */
  #generation = 0;

  /**
   * `maxWindows` bounds the line windows kept per file (the oldest go first); `maxFiles` bounds the files tracked at
   * once (the least recently used is forgotten, so it must be read again before an edit).
   */
  constructor(maxWindows = 32, maxFiles = 2048) {
    this.#maxWindows = Math.max(1, maxWindows);
    this.#maxFiles = Math.max(1, maxFiles);
  }

  /** Follows a branch: prunes on every active-view change and confirms evidence as responses land. */
  attach(branch: BranchView): () => void {
    this.#branch = branch;
    this.#generation++;
    return branch.subscribe((event) => {
      this.#generation++;
      if (event.type === 'active') {
        if (event.removed.length > 0) this.prune();
        return;
      }
      const message = event.message;
      if (!isActionResponse(message)) return;
      const callId = message.content.call_id;
      if (!this.#pending.delete(callId)) return;
      this.#responsesSeen = true;
      // The model never saw a result that was cancelled or replaced by a failure: that is no evidence.
      if (message.content.status !== 'completed' || isToolFailure(message.content.output)) this.#forget(callId);
    });
  }

  /** Records the digest of the whole file as a successful read or write showed it. */
  record(path: string, sha256: string, callId: string, source: 'read' | 'write'): void {
    const entry = this.#entry(path);
    this.#pend(callId);
    if (!this.#responsesSeen) entry.digests.clear();
    let calls = entry.digests.get(sha256);
    if (!calls) {
      calls = new Set();
      entry.digests.set(sha256, calls);
    }
    calls.add(callId);
    entry.latest = sha256;
    entry.source = source;
  }

  /** Records the stamp a read confirmed the file had while it read it (evidence for big files the reader did not hash). */
  recordStamp(path: string, stamp: string, callId: string): void {
    const entry = this.#entry(path);
    this.#pend(callId);
    if (!this.#responsesSeen) entry.stamps.clear();
    let calls = entry.stamps.get(stamp);
    if (!calls) {
      calls = new Set();
      entry.stamps.set(stamp, calls);
    }
    calls.add(callId);
    entry.source = 'read';
  }

  /** Records the lines a read window showed (cheap evidence: no hashing, checked against the file when an edit needs it). */
  recordWindow(path: string, startLine: number, lines: readonly (string | null)[], callId: string): void {
    if (lines.length === 0) return;
    const entry = this.#entry(path);
    this.#pend(callId);
    entry.windows.push(Object.freeze({ startLine, lines: Object.freeze([...lines]), callId }));
    if (entry.windows.length > this.#maxWindows) entry.windows.splice(0, entry.windows.length - this.#maxWindows);
    entry.source = 'read';
  }

  /**
   * Moves the evidence of a path — and of everything below it, for a directory — to its new name: a rename keeps
   * the content the branch saw. Whatever was known of the destination is dropped (it was replaced).
   */
  move(from: string, to: string): void {
    const moved: [string, Entry][] = [];
    for (const [path, entry] of this.#entries) {
      if (path === to || path.startsWith(`${to}/`)) this.#entries.delete(path);
      else if (path === from || path.startsWith(`${from}/`)) moved.push([path, entry]);
    }
    for (const [path, entry] of moved) {
      this.#entries.delete(path);
      this.#entries.set(to + path.slice(from.length), entry);
    }
  }

  /** Drops all evidence of a path (after a delete). */
  drop(path: string): void {
    this.#entries.delete(path);
  }

  /** The live entry for a path (pruned first), or undefined when the branch holds no evidence of it. */
  get(path: string): FileStateEntry | undefined {
    const entry = this.#entries.get(path);
    if (!entry) return undefined;
    if (!this.#pruneEntry(entry)) {
      this.#entries.delete(path);
      return undefined;
    }
    this.#touch(path, entry);
    let evidence: Set<string> | undefined;
    // Every call id behind the entry is only gathered when asked for: the guard never needs them.
    const gather = () => {
      const ids = new Set<string>();
      for (const calls of entry.digests.values()) for (const id of calls) ids.add(id);
      for (const window of entry.windows) ids.add(window.callId);
      for (const calls of entry.stamps.values()) for (const id of calls) ids.add(id);
      return ids;
    };
    return {
      path,
      sha256: entry.latest !== undefined && entry.digests.has(entry.latest) ? entry.latest : undefined,
      digests: new Set(entry.digests.keys()),
      windows: [...entry.windows],
      stamps: new Set(entry.stamps.keys()),
      get evidence() {
        evidence ??= gather();
        return evidence;
      },
      source: entry.source,
    };
  }

  /** Drops every entry none of whose evidence is still active; returns how many were dropped. */
  prune(): number {
    let dropped = 0;
    for (const [path, entry] of this.#entries) {
      if (!this.#pruneEntry(entry)) {
        this.#entries.delete(path);
        dropped += 1;
      }
    }
    return dropped;
  }

  /** Number of files with live evidence. */
  get size(): number {
    this.prune();
    return this.#entries.size;
  }

  /** Paths with live evidence (for diagnostics and tests). */
  paths(): string[] {
    this.prune();
    return [...this.#entries.keys()];
  }

  /** Sizes of the internal tables (for tests and diagnostics): tracked files, pending call ids, call ids referenced. */
  stats(): { files: number; pending: number; callIds: number } {
    return { files: this.#entries.size, pending: this.#pending.size, callIds: this.#referenced().size };
  }

  /** Marks a file most recently used (a Map keeps insertion order, so the first key is the least recent). */
  #touch(path: string, entry: Entry): void {
    this.#entries.delete(path);
    this.#entries.set(path, entry);
  }

  #pend(callId: string): void {
    this.#pending.add(callId);
    if (this.#pending.size > this.#sweepAt) this.#sweepPending();
  }

  /**
   * Drops pending ids that no entry refers to any more (superseded, evicted, moved over or dropped): only ids behind
   * evidence matter to `#alive`, and a response for a forgotten id is ignored. Runs when the set doubled since the last
   * sweep, so its cost is amortized over the records that grew it.
   */
  #sweepPending(): void {
    const referenced = this.#referenced();
    for (const id of this.#pending) if (!referenced.has(id)) this.#pending.delete(id);
    this.#sweepAt = Math.max(1024, 2 * this.#pending.size);
  }

  #referenced(): Set<string> {
    const ids = new Set<string>();
    for (const entry of this.#entries.values()) {
      for (const calls of entry.digests.values()) for (const id of calls) ids.add(id);
      for (const window of entry.windows) ids.add(window.callId);
      for (const calls of entry.stamps.values()) for (const id of calls) ids.add(id);
    }
    return ids;
  }

  #entry(path: string): Entry {
    let entry = this.#entries.get(path);
    if (entry) this.#touch(path, entry);
    else {
      entry = {
        digests: new Map(),
        latest: undefined,
        windows: [],
        stamps: new Map(),
        source: 'read',
        prunedAt: this.#generation,
      };
      this.#entries.set(path, entry);
      // Forgetting the least recently used file only makes the guard stricter: it must be read again to be edited.
      if (this.#entries.size > this.#maxFiles) {
        const oldest = this.#entries.keys().next().value;
        if (oldest !== undefined) this.#entries.delete(oldest);
      }
    }
    return entry;
  }

  /** Removes dead evidence from one entry; false when nothing live is left. */
  #pruneEntry(entry: Entry): boolean {
    if (entry.prunedAt !== this.#generation) {
      this.#pruneNow(entry);
      entry.prunedAt = this.#generation;
    }
    return entry.digests.size > 0 || entry.windows.length > 0 || entry.stamps.size > 0;
  }

  #pruneNow(entry: Entry): void {
    for (const [digest, calls] of entry.digests) {
      for (const id of calls) if (!this.#alive(id)) calls.delete(id);
      if (calls.size === 0) entry.digests.delete(digest);
    }
    entry.windows = entry.windows.filter((window) => this.#alive(window.callId));
    for (const [stamp, calls] of entry.stamps) {
      for (const id of calls) if (!this.#alive(id)) calls.delete(id);
      if (calls.size === 0) entry.stamps.delete(stamp);
    }
  }

  #alive(callId: string): boolean {
    const branch = this.#branch;
    if (!branch) return true;
    return this.#pending.has(callId) || branch.isCallActive(callId);
  }

  #forget(callId: string): void {
    this.#generation++;
    for (const [path, entry] of this.#entries) {
      for (const [digest, calls] of entry.digests) {
        if (calls.delete(callId) && calls.size === 0) entry.digests.delete(digest);
      }
      entry.windows = entry.windows.filter((window) => window.callId !== callId);
      for (const [stamp, calls] of entry.stamps) {
        if (calls.delete(callId) && calls.size === 0) entry.stamps.delete(stamp);
      }
      if (entry.digests.size === 0 && entry.windows.length === 0 && entry.stamps.size === 0) this.#entries.delete(path);
    }
  }
}
