import type { ChatModel } from './chat-model.js';
import type { Message, MessageInput } from './messages.js';

/** Something that happened to a branch; listeners use it to keep derived state honest. */
export type BranchEvent =
  | { readonly type: 'message'; readonly message: Message }
  | { readonly type: 'active'; readonly removed: readonly string[]; readonly added: readonly string[] };

/**
 * What tools, hooks and branch-scoped providers see of the branch they run on: its identity, the full record, the
 * active view and the curation a bound tool performs (evict, restore, compact, deliver a message). It has no tool
 * registry, `act` or `clone`: a tool cannot register tools on, run tools through, or copy the branch it serves.
 * `Branch` implements it.
 */
export interface BranchView {
  readonly id: string;
  readonly name: string | undefined;
  readonly model: ChatModel | undefined;
  readonly workspaceRoot: string | undefined;
  /** The full, never-pruned record in chronological order. */
  readonly messages: readonly Message[];
  /** The system message, if the branch has one (there is never more than one). */
  readonly system: Message | undefined;
  /** Appends a message to the record and to the end of the active view. Only the first message may be 'system'. */
  addMessage(input: MessageInput): Message;
  /** Sets (or replaces) the system message text; the new message takes the old one's place. */
  setSystem(text: string): Message;
  /** Looks a message up by id. */
  getMessage(id: string): Message | undefined;
  /** Index of a message in the full record, or -1. */
  indexOf(id: string): number;
  /** Ids of the active view, in the order a model sees them (a frozen snapshot). */
  activeIds(): readonly string[];
  /** The active view as messages. */
  activeMessages(): Message[];
  /** True when the message is in the active view. */
  isActive(id: string): boolean;
  /** True when the response to a tool call is still in the active view (the evidence a read left). */
  isCallActive(callId: string): boolean;
  /** Replaces the active view; every id must exist in the record and appear once. */
  setActiveIds(ids: readonly string[]): void;
  /** Removes messages from the active view (the record keeps them); returns how many were active. */
  evict(ids: Iterable<string>): number;
  /** Puts evicted messages back in chronological order; returns how many were restored. */
  restore(ids: Iterable<string>): number;
  /** Subscribes to branch events; returns an unsubscribe function. Listeners are not copied by clone. */
  subscribe(listener: (event: BranchEvent) => void): () => void;
}
