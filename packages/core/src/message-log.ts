import { ConfigurationError } from './bough-error.js';
import type { BranchEvent } from './branch-view.js';
import { newId } from './internal/ids.js';
import type { Message, MessageInput } from './messages.js';

/**
 * A branch's messages: the full record (never pruned), the active view a model is fed, and the events listeners use
 * to keep derived state honest. `Branch` owns one and forwards to it; clone copies one into another.
 */
export class MessageLog {
  readonly #ownerId: string;
  readonly #record: Message[] = [];
  readonly #position = new Map<string, number>();
  #active: string[] = [];
  /** Frozen copy handed out by activeIds(); dropped whenever the active view changes. */
  #activeSnapshot: readonly string[] | undefined;
  readonly #activeSet = new Set<string>();
  readonly #responseByCall = new Map<string, string>();
  readonly #listeners = new Set<(event: BranchEvent) => void>();

  /** `ownerId` is the branch id, the default recipient of added messages. */
  constructor(ownerId: string) {
    this.#ownerId = ownerId;
  }

  /** The full record in chronological order. */
  get messages(): readonly Message[] {
    return this.#record;
  }

  /** Number of messages in the active view. */
  get activeCount(): number {
    return this.#active.length;
  }

  /** The system message, if any (there is never more than one, and it comes first). */
  get system(): Message | undefined {
    const first = this.#record[0];
    return first?.role === 'system' ? first : undefined;
  }

  /** Appends a message to the record and to the end of the active view. Only the first message may be 'system'. */
  add(input: MessageInput): Message {
    if (input.role === 'system' && this.#record.length > 0) {
      throw new ConfigurationError(
        'A branch has one system message, and it comes first; use setSystem() to change it.',
      );
    }
    const message: Message = Object.freeze({
      id: newId(),
      role: input.role,
      content: freezeContent(input.content),
      createdAt: Date.now(),
      ...(input.sender !== undefined ? { sender: input.sender } : {}),
      ...(input.recipient !== undefined ? { recipient: input.recipient } : { recipient: this.#ownerId }),
      metadata: Object.freeze({ ...(input.metadata ?? {}) }),
    });
    this.#append(message, true);
    this.#emit({ type: 'message', message });
    return message;
  }

  #append(message: Message, active: boolean): void {
    this.#position.set(message.id, this.#record.length);
    this.#record.push(message);
    if (message.role === 'action_response') {
      const callId = (message.content as { call_id?: unknown }).call_id;
      if (typeof callId === 'string') this.#responseByCall.set(callId, message.id);
    }
    if (active) {
      this.#active.push(message.id);
      this.#activeSnapshot = undefined;
      this.#activeSet.add(message.id);
    }
  }

  /** Sets (or replaces) the system message text; the new message takes the old one's place. */
  setSystem(text: string): Message {
    const old = this.system;
    if (!old) {
      const message: Message = Object.freeze({
        id: newId(),
        role: 'system',
        content: text,
        createdAt: Date.now(),
        recipient: this.#ownerId,
        metadata: Object.freeze({}),
      });
      this.#record.unshift(message);
      this.#reindex();
      this.#active.unshift(message.id);
      this.#activeSnapshot = undefined;
      this.#activeSet.add(message.id);
      this.#emit({ type: 'active', removed: [], added: [message.id] });
      return message;
    }
    const message: Message = Object.freeze({ ...old, id: newId(), content: text, createdAt: Date.now() });
    this.#record[0] = message;
    this.#position.delete(old.id);
    this.#position.set(message.id, 0);
    const wasActive = this.#activeSet.delete(old.id);
    this.#active = this.#active.filter((id) => id !== old.id);
    this.#activeSnapshot = undefined;
    if (wasActive) {
      this.#active.unshift(message.id);
      this.#activeSet.add(message.id);
    }
    this.#emit({ type: 'active', removed: [old.id], added: wasActive ? [message.id] : [] });
    return message;
  }

  #reindex(): void {
    this.#position.clear();
    for (const [index, message] of this.#record.entries()) this.#position.set(message.id, index);
  }

  /** Looks a message up by id. */
  get(id: string): Message | undefined {
    const index = this.#position.get(id);
    return index === undefined ? undefined : this.#record[index];
  }

  /** Index of a message in the full record, or -1. */
  indexOf(id: string): number {
    return this.#position.get(id) ?? -1;
  }

  /** Ids of the active view, in the order a model sees them. */
  activeIds(): readonly string[] {
    this.#activeSnapshot ??= Object.freeze([...this.#active]);
    return this.#activeSnapshot;
  }

  /** The active view as messages. */
  activeMessages(): Message[] {
    return this.#active.map((id) => this.#record[this.#position.get(id) as number] as Message);
  }

  /** True when the message is in the active view. */
  isActive(id: string): boolean {
    return this.#activeSet.has(id);
  }

  /** True when the response to a tool call is still in the active view. */
  isCallActive(callId: string): boolean {
    const id = this.#responseByCall.get(callId);
    return id !== undefined && this.#activeSet.has(id);
  }

  /** Replaces the active view; every id must exist in the record and appear once. */
  setActiveIds(ids: readonly string[]): void {
    const next = new Set<string>();
    for (const id of ids) {
      if (!this.#position.has(id)) throw new ConfigurationError(`No message ${id} in this branch.`);
      if (next.has(id)) throw new ConfigurationError(`Message ${id} appears twice in the active view.`);
      next.add(id);
    }
    const removed = this.#active.filter((id) => !next.has(id));
    const added = ids.filter((id) => !this.#activeSet.has(id));
    this.#active = [...ids];
    this.#activeSnapshot = undefined;
    this.#activeSet.clear();
    for (const id of ids) this.#activeSet.add(id);
    if (removed.length > 0 || added.length > 0) this.#emit({ type: 'active', removed, added });
  }

  /** Removes messages from the active view (the record keeps them); returns how many were active. */
  evict(ids: Iterable<string>): number {
    const drop = new Set([...ids].filter((id) => this.#activeSet.has(id)));
    if (drop.size === 0) return 0;
    this.setActiveIds(this.#active.filter((id) => !drop.has(id)));
    return drop.size;
  }

  /**
   * Puts evicted messages back, each before the first active message that comes later in the record,
   * so restored messages sit in chronological order. Returns how many were restored.
   */
  restore(ids: Iterable<string>): number {
    const wanted = [...new Set(ids)]
      .filter((id) => this.#position.has(id) && !this.#activeSet.has(id))
      .sort((a, b) => (this.#position.get(a) as number) - (this.#position.get(b) as number));
    if (wanted.length === 0) return 0;
    const next = [...this.#active];
    for (const id of wanted) {
      const at = this.#position.get(id) as number;
      const before = next.findIndex((other) => (this.#position.get(other) as number) > at);
      next.splice(before === -1 ? next.length : before, 0, id);
    }
    this.setActiveIds(next);
    return wanted.length;
  }

  /** Subscribes to events; returns an unsubscribe function. */
  subscribe(listener: (event: BranchEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: BranchEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener's bug must not corrupt the branch or the caller.
      }
    }
  }

  /**
   * Fills an empty log with saved messages, ids and timestamps kept, and the saved active view (ids that are not in
   * the record, or repeat, are skipped). No events fire. Used when a branch is loaded from JSON.
   */
  load(messages: readonly Message[], active: readonly string[]): void {
    for (const message of messages) {
      const copy: Message = Object.freeze({
        ...message,
        content: freezeContent(message.content),
        metadata: Object.freeze({ ...message.metadata }),
      });
      this.#append(copy, false);
    }
    for (const id of active) {
      if (!this.#position.has(id) || this.#activeSet.has(id)) continue;
      this.#active.push(id);
      this.#activeSet.add(id);
    }
    this.#activeSnapshot = undefined;
  }

  /**
   * Copies every message into `target` (an empty log) with a new id and `origin` set to the source id; the active
   * view is mapped over, so evicted messages stay evicted. No events fire and listeners are not copied.
   */
  copyInto(target: MessageLog): void {
    const idMap = new Map<string, string>();
    for (const message of this.#record) {
      const copy: Message = Object.freeze({ ...message, id: newId(), origin: message.id });
      idMap.set(message.id, copy.id);
      target.#append(copy, false);
    }
    for (const id of this.#active) {
      const mapped = idMap.get(id) as string;
      target.#active.push(mapped);
      target.#activeSet.add(mapped);
    }
    target.#activeSnapshot = undefined;
  }
}

function freezeContent<T>(content: T): T {
  return typeof content === 'object' && content !== null ? (Object.freeze({ ...content }) as T) : content;
}
