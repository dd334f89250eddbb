import type { BranchEvent, BranchView } from './branch-view.js';
import type { ExecuteOptions, ToolCall } from './call.js';
import type { ChatModel } from './chat-model.js';
import { type CloneOptions, cloneTools } from './clone.js';
import { newId } from './internal/ids.js';
import { MessageLog } from './message-log.js';
import { type Message, type MessageInput, messageText } from './messages.js';
import type { ProviderContext } from './provider.js';
import { type RegisterOptions, type Registrable, ToolRegistry } from './registry.js';
import type { Tool } from './tool.js';

/** Construction options of a {@link Branch}; a clone inherits all of them. */
export interface BranchOptions {
  readonly id?: string;
  readonly name?: string;
  /** Text of the single system message, if any. */
  readonly system?: string;
  readonly model?: ChatModel;
  readonly workspaceRoot?: string;
}

/** One requested tool call for {@link Branch.act}. */
export interface ActionCall {
  readonly name: string;
  readonly arguments: unknown;
  readonly id?: string;
}

/** Options for {@link Branch.act}. */
export interface ActOptions extends Pick<ExecuteOptions, 'signal' | 'timeoutMs' | 'progress'> {
  /** 'concurrent' (default) runs calls together; 'sequential' runs them one after another. */
  readonly strategy?: 'concurrent' | 'sequential';
}

/**
 * What a copy of a branch starts from besides its options: the branch it came from, its metadata and its messages
 * (a clone's message log, or saved messages with their active view). Built by `clone` and `branchFromJson`; a branch
 * made with `new Branch(options)` starts empty.
 */
export interface BranchSeed {
  readonly clonedFrom: string | undefined;
  readonly metadata: Record<string, unknown>;
  /** The log of the branch being cloned: its messages are copied with new ids. */
  readonly log?: MessageLog;
  /** Saved messages and active view, loaded as they are (ids kept). */
  readonly saved?: { readonly messages: readonly Message[]; readonly active: readonly string[] };
}

/** Builds a branch around saved messages and metadata (for branch-json.ts; not exported from the package). */
export function restoreBranch(
  options: BranchOptions,
  saved: {
    clonedFrom?: string;
    metadata: Record<string, unknown>;
    messages: readonly Message[];
    active: readonly string[];
  },
): Branch {
  return new Branch(options, { clonedFrom: saved.clonedFrom, metadata: saved.metadata, saved });
}

/**
 * A conversation: the full record of messages, the active view a model is fed (curated by the context tool),
 * metadata, and a tool registry whose branch-scoped providers are bound to this branch.
 */
export class Branch implements BranchView {
  readonly id: string;
  readonly name: string | undefined;
  readonly model: ChatModel | undefined;
  readonly workspaceRoot: string | undefined;
  /** The id of the branch this one was cloned from, if any. */
  readonly clonedFrom: string | undefined;
  /** Free-form metadata; shallow-copied by clone. */
  readonly metadata: Record<string, unknown>;
  readonly registry: ToolRegistry;
  readonly #log: MessageLog;

  /**
   * @param options identity, system text, model and workspace root
   * @param seed what a copy starts from (`clone` and `branchFromJson` pass it); without it the branch starts empty
   */
  constructor(options: BranchOptions = {}, seed?: BranchSeed) {
    this.id = options.id ?? newId();
    this.name = options.name;
    this.model = options.model;
    this.workspaceRoot = options.workspaceRoot;
    this.clonedFrom = seed?.clonedFrom;
    this.metadata = { ...(seed?.metadata ?? {}) };
    this.registry = new ToolRegistry(() => this.providerContext());
    this.#log = new MessageLog(this.id);
    seed?.log?.copyInto(this.#log);
    if (seed?.saved) this.#log.load(seed.saved.messages, seed.saved.active);
    if (options.system !== undefined) this.addMessage({ role: 'system', content: options.system });
  }

  /** The context branch-scoped providers are built with. */
  providerContext(): ProviderContext {
    return {
      branch: this,
      ...(this.workspaceRoot !== undefined ? { workspaceRoot: this.workspaceRoot } : {}),
      ...(this.model ? { model: this.model } : {}),
    };
  }

  // ---- messages and the active view (kept by the MessageLog) ---------------------------------------------------

  /** The full, never-pruned record in chronological order. */
  get messages(): readonly Message[] {
    return this.#log.messages;
  }

  /** The system message, if the branch has one (there is never more than one). */
  get system(): Message | undefined {
    return this.#log.system;
  }

  /** Appends a message to the record and to the end of the active view. Only the first message may be 'system'. */
  addMessage(input: MessageInput): Message {
    return this.#log.add(input);
  }

  /** Sets (or replaces) the system message text; the new message takes the old one's place. */
  setSystem(text: string): Message {
    return this.#log.setSystem(text);
  }

  /** Looks a message up by id. */
  getMessage(id: string): Message | undefined {
    return this.#log.get(id);
  }

  /** Index of a message in the full record, or -1. */
  indexOf(id: string): number {
    return this.#log.indexOf(id);
  }

  /** Ids of the active view, in the order a model sees them. */
  activeIds(): readonly string[] {
    return this.#log.activeIds();
  }

  /** The active view as messages. */
  activeMessages(): Message[] {
    return this.#log.activeMessages();
  }

  /** True when the message is in the active view. */
  isActive(id: string): boolean {
    return this.#log.isActive(id);
  }

  /** True when the response to a tool call is still in the active view (the evidence a read left). */
  isCallActive(callId: string): boolean {
    return this.#log.isCallActive(callId);
  }

  /** Replaces the active view; every id must exist in the record and appear once. */
  setActiveIds(ids: readonly string[]): void {
    this.#log.setActiveIds(ids);
  }

  /** Removes messages from the active view (the record keeps them); returns how many were active. */
  evict(ids: Iterable<string>): number {
    return this.#log.evict(ids);
  }

  /**
   * Puts evicted messages back, each before the first active message that comes later in the record,
   * so restored messages sit in chronological order. Returns how many were restored.
   */
  restore(ids: Iterable<string>): number {
    return this.#log.restore(ids);
  }

  /** Subscribes to branch events; returns an unsubscribe function. Listeners are not copied by clone. */
  subscribe(listener: (event: BranchEvent) => void): () => void {
    return this.#log.subscribe(listener);
  }

  // ---- tools ----------------------------------------------------------------------------------------------------

  /** Registers tools or providers; branch-scoped providers are built against this branch. */
  registerTools(item: Registrable, options: RegisterOptions = {}): Tool[] {
    return this.registry.register(item, options);
  }

  /** The registered tools in order. */
  get tools(): Tool[] {
    return this.registry.list();
  }

  /**
   * Runs one call or several, appending an action_request and an action_response message per call. Concurrent
   * calls append all requests first (input order), then all responses (input order); sequential calls alternate.
   */
  async act(call: ActionCall, options?: ActOptions): Promise<ToolCall>;
  async act(calls: readonly ActionCall[], options?: ActOptions): Promise<ToolCall[]>;
  async act(input: ActionCall | readonly ActionCall[], options: ActOptions = {}): Promise<ToolCall | ToolCall[]> {
    const calls = Array.isArray(input) ? (input as readonly ActionCall[]) : [input as ActionCall];
    const ids = calls.map((call) => call.id ?? newId());
    const execute = (call: ActionCall, callId: string) =>
      this.registry.invoke(call.name, call.arguments, { ...options, branch: this, callId });
    const results: ToolCall[] = [];
    if (options.strategy === 'sequential') {
      for (const [index, call] of calls.entries()) {
        this.#addRequest(call, ids[index] as string);
        const done = await execute(call, ids[index] as string);
        this.#addResponse(done);
        results.push(done);
      }
    } else {
      for (const [index, call] of calls.entries()) this.#addRequest(call, ids[index] as string);
      results.push(...(await Promise.all(calls.map((call, index) => execute(call, ids[index] as string)))));
      for (const done of results) this.#addResponse(done);
    }
    return Array.isArray(input) ? results : (results[0] as ToolCall);
  }

  #addRequest(call: ActionCall, callId: string): void {
    this.addMessage({
      role: 'action_request',
      content: { function: call.name, arguments: call.arguments ?? {}, call_id: callId },
    });
  }

  #addResponse(call: ToolCall): void {
    const status = call.status === 'completed' || call.status === 'cancelled' ? call.status : 'failed';
    this.addMessage({
      role: 'action_response',
      content: {
        function: call.name,
        arguments: call.args ?? {},
        output: call.output ?? null,
        call_id: call.id,
        status,
      },
    });
  }

  /**
   * Copies the branch (ADR-0013 Delta 2): messages get new ids and remember their origin, evicted stay evicted,
   * stateless tools are shared, branch-scoped providers build again against the clone, and bound tools that
   * cannot be rebuilt make the clone fail (naming them) unless `unbound: 'drop'`.
   */
  clone(options: CloneOptions = {}): Branch {
    return cloneTools(
      this,
      options,
      () =>
        new Branch(
          {
            ...((options.name ?? this.name) ? { name: options.name ?? this.name } : {}),
            ...(this.model ? { model: this.model } : {}),
            ...(this.workspaceRoot !== undefined ? { workspaceRoot: this.workspaceRoot } : {}),
          },
          { clonedFrom: this.id, metadata: this.metadata, log: this.#log },
        ),
    );
  }

  /** A short description for logs. */
  toString(): string {
    return `Branch(${this.name ?? this.id}, ${this.#log.messages.length} messages, ${this.#log.activeCount} active)`;
  }

  /** Text of the active view, one `role: text` line per message (handy for prompts and debugging). */
  transcript(): string {
    return this.activeMessages()
      .map((message) => `${message.role}: ${messageText(message)}`)
      .join('\n');
  }
}
