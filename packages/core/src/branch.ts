import { CloneError, ConfigurationError } from './bough-error.js';
import type { ExecuteOptions, ToolCall } from './call.js';
import type { ChatModel } from './chat-model.js';
import { errorMessage } from './errors.js';
import { newId } from './internal/ids.js';
import { type Message, type MessageInput, messageText } from './messages.js';
import type { Provider, ProviderContext } from './provider.js';
import { type RegisterOptions, type Registrable, type RegistryEntry, ToolRegistry } from './registry.js';
import { messageTokens } from './tokens.js';
import { isTool, type Tool } from './tool.js';

/** Construction options of a {@link Branch}; a clone inherits all of them. */
export interface BranchOptions {
  readonly id?: string;
  readonly name?: string;
  /** Text of the single system message, if any. */
  readonly system?: string;
  readonly model?: ChatModel;
  readonly workspaceRoot?: string;
  /** Shared services handed to providers (an Exchange, a roster, …). */
  readonly services?: Readonly<Record<string, unknown>>;
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

/** Options for {@link Branch.clone}. */
export interface CloneOptions {
  /** What to do with bound tools that cannot be rebuilt: throw (default) or leave them out of the clone. */
  readonly unbound?: 'error' | 'drop';
  readonly name?: string;
}

/** Something that happened to a branch; listeners use it to keep derived state honest. */
export type BranchEvent =
  | { readonly type: 'message'; readonly message: Message }
  | { readonly type: 'active'; readonly removed: readonly string[]; readonly added: readonly string[] };

/**
 * A conversation: the full record of messages, the active view a model is fed (curated by the context tool),
 * metadata, and a tool registry whose branch-scoped providers are bound to this branch.
 */
export class Branch {
  readonly id: string;
  readonly name: string | undefined;
  readonly model: ChatModel | undefined;
  readonly workspaceRoot: string | undefined;
  readonly services: Readonly<Record<string, unknown>>;
  /** The id of the branch this one was cloned from, if any. */
  readonly clonedFrom: string | undefined;
  /** Free-form metadata; shallow-copied by clone. */
  readonly metadata: Record<string, unknown>;
  readonly registry: ToolRegistry;

  readonly #record: Message[] = [];
  readonly #position = new Map<string, number>();
  #active: string[] = [];
  /** Frozen copy handed out by activeIds(); dropped whenever the active view changes. */
  #activeSnapshot: readonly string[] | undefined;
  readonly #activeSet = new Set<string>();
  readonly #responseByCall = new Map<string, string>();
  readonly #listeners = new Set<(event: BranchEvent) => void>();

  constructor(options: BranchOptions = {}, internal?: { clonedFrom?: string; metadata?: Record<string, unknown> }) {
    this.id = options.id ?? newId();
    this.name = options.name;
    this.model = options.model;
    this.workspaceRoot = options.workspaceRoot;
    this.services = Object.freeze({ ...(options.services ?? {}) });
    this.clonedFrom = internal?.clonedFrom;
    this.metadata = { ...(internal?.metadata ?? {}) };
    this.registry = new ToolRegistry(() => this.providerContext());
    if (options.system !== undefined) this.addMessage({ role: 'system', content: options.system });
  }

  /** The context branch-scoped providers are built with. */
  providerContext(): ProviderContext {
    return {
      branch: this,
      ...(this.workspaceRoot !== undefined ? { workspaceRoot: this.workspaceRoot } : {}),
      ...(this.model ? { model: this.model } : {}),
      services: this.services,
    };
  }

  // ---- messages -------------------------------------------------------------------------------------------------

  /** The full, never-pruned record in chronological order. */
  get messages(): readonly Message[] {
    return this.#record;
  }

  /** The system message, if the branch has one (there is never more than one). */
  get system(): Message | undefined {
    const first = this.#record[0];
    return first?.role === 'system' ? first : undefined;
  }

  /** Appends a message to the record and to the end of the active view. Only the first message may be 'system'. */
  addMessage(input: MessageInput): Message {
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
      ...(input.recipient !== undefined ? { recipient: input.recipient } : { recipient: this.id }),
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
        recipient: this.id,
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
  getMessage(id: string): Message | undefined {
    const index = this.#position.get(id);
    return index === undefined ? undefined : this.#record[index];
  }

  /** Index of a message in the full record, or -1. */
  indexOf(id: string): number {
    return this.#position.get(id) ?? -1;
  }

  // ---- active view ----------------------------------------------------------------------------------------------

  /** Ids of the active view, in the order a model sees them. */
  activeIds(): readonly string[] {
    this.#activeSnapshot ??= Object.freeze([...this.#active]);
    return this.#activeSnapshot;
  }

  /** The active view as messages. */
  activeMessages(): Message[] {
    return this.#active.map((id) => this.#record[this.#position.get(id) as number] as Message);
  }

  isActive(id: string): boolean {
    return this.#activeSet.has(id);
  }

  /** True when the response to a tool call is still in the active view (the evidence a read left). */
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

  /** Exact o200k_base token count of the active view (per-message counts are cached). */
  activeTokenCount(): number {
    let total = 0;
    for (const id of this.#active) total += messageTokens(this.#record[this.#position.get(id) as number] as Message);
    return total;
  }

  /** Subscribes to branch events; returns an unsubscribe function. Listeners are not copied by clone. */
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

  // ---- clone ----------------------------------------------------------------------------------------------------

  /**
   * Copies the branch (ADR-0013 Delta 2): messages get new ids and remember their origin, evicted stay evicted,
   * stateless tools are shared, branch-scoped providers build again against the clone, and bound tools that
   * cannot be rebuilt make the clone fail (naming them) unless `unbound: 'drop'`.
   */
  clone(options: CloneOptions = {}): Branch {
    const entries = this.registry.entries();
    const plan = planTools(entries);
    if (plan.unbound.length > 0 && options.unbound !== 'drop') {
      throw new CloneError(
        `Cannot clone branch ${this.name ?? this.id}: these tools are bound to it and cannot be rebuilt: ${plan.unbound.join(', ')}. ` +
          `Register them through a provider that can rebuild, or clone with { unbound: 'drop' }.`,
        plan.unbound,
      );
    }
    const clone = new Branch(
      {
        ...((options.name ?? this.name) ? { name: options.name ?? this.name } : {}),
        ...(this.model ? { model: this.model } : {}),
        ...(this.workspaceRoot !== undefined ? { workspaceRoot: this.workspaceRoot } : {}),
        services: this.services,
      },
      { clonedFrom: this.id, metadata: this.metadata },
    );
    const idMap = new Map<string, string>();
    for (const message of this.#record) {
      const copy: Message = Object.freeze({ ...message, id: newId(), origin: message.id });
      idMap.set(message.id, copy.id);
      clone.#append(copy, false);
    }
    for (const id of this.#active) {
      const mapped = idMap.get(id) as string;
      clone.#active.push(mapped);
      clone.#activeSnapshot = undefined;
      clone.#activeSet.add(mapped);
    }
    for (const [name, list] of this.registry.hooks()) for (const hooks of list) clone.registry.addHooks(name, hooks);
    // Providers are built against the clone with a signal that fires if the clone is abandoned half-way, so a
    // provider that already acted outside the branch (joined an exchange, say) can take that back.
    const abandon = new AbortController();
    const context: ProviderContext = { ...clone.providerContext(), abandoned: abandon.signal };
    try {
      const staged = rebuildEntries(entries, plan.unbound, context);
      const missing = staged.missing;
      if (missing.length > 0 && options.unbound !== 'drop') {
        throw new CloneError(
          `Cannot clone branch ${this.name ?? this.id}: building again for the clone did not produce these tools: ${missing.join(', ')}. ` +
            `Fix the provider, or clone with { unbound: 'drop' } to leave them out.`,
          missing,
        );
      }
      clone.registry.adopt(staged.entries);
    } catch (error) {
      abandon.abort(error);
      throw error;
    }
    return clone;
  }

  /** A short description for logs. */
  toString(): string {
    return `Branch(${this.name ?? this.id}, ${this.#record.length} messages, ${this.#active.length} active)`;
  }

  /** Text of the active view, one `role: text` line per message (handy for prompts and debugging). */
  transcript(): string {
    return this.activeMessages()
      .map((message) => `${message.role}: ${messageText(message)}`)
      .join('\n');
  }
}

/** The clone's registry rows: shared stateless tools and freshly built bound ones, in the source's order. */
function rebuildEntries(
  entries: readonly RegistryEntry[],
  unbound: readonly string[],
  context: ProviderContext,
): { entries: RegistryEntry[]; missing: string[] } {
  const rebuilt = new Map<Provider, Map<string, Tool>>();
  const staged: RegistryEntry[] = [];
  const missing: string[] = [];
  for (const entry of entries) {
    if (unbound.includes(entry.tool.name)) continue;
    const provider = entry.provider;
    if (!provider || provider.scope === 'stateless') {
      staged.push(entry);
      continue;
    }
    let tools = rebuilt.get(provider);
    if (!tools) {
      tools = buildForClone(provider, entries, context);
      rebuilt.set(provider, tools);
    }
    const fresh = tools.get(entry.tool.name);
    if (fresh) staged.push({ tool: fresh, provider });
    else missing.push(entry.tool.name);
  }
  return { entries: staged, missing };
}

/** Builds one branch provider for a clone; a throw or a non-tool becomes a CloneError naming the provider's tools. */
function buildForClone(
  provider: Provider,
  entries: readonly RegistryEntry[],
  context: ProviderContext,
): Map<string, Tool> {
  const names = entries.filter((entry) => entry.provider === provider).map((entry) => entry.tool.name);
  let built: readonly Tool[];
  try {
    built = provider.build(context);
  } catch (error) {
    throw new CloneError(
      `Cannot clone: provider ${provider.name} failed while building ${names.join(', ')} for the clone (${errorMessage(error)}).`,
      names,
      { cause: error },
    );
  }
  if (!Array.isArray(built) || !built.every(isTool)) {
    throw new CloneError(
      `Cannot clone: provider ${provider.name} built something that is not a list of Tools for the clone.`,
      names,
    );
  }
  return new Map(built.map((tool) => [tool.name, tool]));
}

function planTools(entries: readonly RegistryEntry[]): { unbound: string[] } {
  const unbound: string[] = [];
  for (const { tool, provider } of entries) {
    if (provider) {
      if (provider.scope === 'branch' && provider.rebind === 'reject') unbound.push(tool.name);
    } else if (tool.scope === 'branch') {
      unbound.push(tool.name);
    }
  }
  return { unbound };
}

function freezeContent<T>(content: T): T {
  return typeof content === 'object' && content !== null ? (Object.freeze({ ...content }) as T) : content;
}
