import { type Branch, isActionResponse, isToolFailure } from '@bough/core';

/** What this branch last saw of one file: the content hash and the calls whose responses carry that evidence. */
export interface FileStateEntry {
  /** Real absolute path. */
  readonly path: string;
  /** sha256 (hex) of the whole file as last read or written by this branch. */
  readonly sha256: string;
  /** Call ids of the reader/editor responses that showed this content. */
  readonly evidence: ReadonlySet<string>;
  /** Whether the latest evidence came from a read or from the toolkit's own write. */
  readonly source: 'read' | 'write';
}

/**
 * Read-before-edit state of one toolkit build. An entry lives only while at least one of its evidence calls is
 * still in the branch's active view (or its response has not been appended yet); evict, compact and
 * evict_action_results therefore drop read- and write-derived entries alike.
 */
export class FileState {
  readonly #entries = new Map<string, { sha256: string; evidence: Set<string>; source: 'read' | 'write' }>();
  /** Calls recorded by a handler whose action_response has not reached the branch yet. */
  readonly #pending = new Set<string>();
  #branch: Branch | undefined;

  /** Follows a branch: prunes on every active-view change and confirms evidence as responses land. */
  attach(branch: Branch): () => void {
    this.#branch = branch;
    return branch.subscribe((event) => {
      if (event.type === 'active') {
        if (event.removed.length > 0) this.prune();
        return;
      }
      const message = event.message;
      if (!isActionResponse(message)) return;
      const callId = message.content.call_id;
      if (!this.#pending.delete(callId)) return;
      // The model never saw a result that was cancelled or replaced by a failure: that is no evidence.
      if (message.content.status !== 'completed' || isToolFailure(message.content.output)) this.#forget(callId);
    });
  }

  /** Records what a successful read or write showed; the same content adds evidence, new content starts over. */
  record(path: string, sha256: string, callId: string, source: 'read' | 'write'): void {
    const entry = this.#entries.get(path);
    this.#pending.add(callId);
    if (entry && entry.sha256 === sha256) {
      entry.evidence.add(callId);
      entry.source = source;
      return;
    }
    this.#entries.set(path, { sha256, evidence: new Set([callId]), source });
  }

  /** The live entry for a path (pruned first), or undefined when the branch holds no evidence of it. */
  get(path: string): FileStateEntry | undefined {
    const entry = this.#entries.get(path);
    if (!entry) return undefined;
    if (!this.#alive(entry.evidence)) {
      this.#entries.delete(path);
      return undefined;
    }
    return { path, sha256: entry.sha256, evidence: new Set(entry.evidence), source: entry.source };
  }

  /** Drops every entry none of whose evidence is still active; returns how many were dropped. */
  prune(): number {
    let dropped = 0;
    for (const [path, entry] of this.#entries) {
      if (!this.#alive(entry.evidence)) {
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

  #alive(evidence: Set<string>): boolean {
    const branch = this.#branch;
    if (!branch) return evidence.size > 0;
    for (const callId of evidence) {
      if (this.#pending.has(callId) || branch.isCallActive(callId)) return true;
    }
    return false;
  }

  #forget(callId: string): void {
    for (const [path, entry] of this.#entries) {
      if (entry.evidence.delete(callId) && entry.evidence.size === 0) this.#entries.delete(path);
    }
  }
}
