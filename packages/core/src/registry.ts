import { ConfigurationError } from './bough-error.js';
import { type ExecuteOptions, executeTool, ToolCall } from './call.js';
import { CallErrorCode } from './errors.js';
import { isProvider, type Provider, type ProviderContext } from './provider.js';
import { isTool, type Tool, type ToolHooks } from './tool.js';

/** Anything a registry (or a Branch) accepts: a tool, a provider, or a list of them. */
export type Registrable = Tool | Provider | readonly Registrable[];

/** One registry row: the tool and the provider that built it (undefined when registered directly). */
export interface RegistryEntry {
  readonly tool: Tool;
  readonly provider?: Provider;
}

/** Options for {@link ToolRegistry.register}. */
export interface RegisterOptions {
  /** Replace a tool of the same name in place (keeping its position) instead of throwing. */
  readonly update?: boolean;
}

/**
 * An ordered set of tools keyed by name, remembering which provider built each one.
 * Providers are built with the context given to the registry (a Branch supplies itself).
 */
export class ToolRegistry {
  readonly #entries = new Map<string, RegistryEntry>();
  readonly #hooks = new Map<string, ToolHooks[]>();
  readonly #context: (() => ProviderContext) | undefined;

  /** `context` is required to register branch-scoped providers; stateless providers build without it. */
  constructor(context?: () => ProviderContext) {
    this.#context = context;
  }

  /** Registers tools and providers; a duplicate name throws a {@link ConfigurationError} unless `update` is set. */
  register(item: Registrable, options: RegisterOptions = {}): Tool[] {
    const staged: RegistryEntry[] = [];
    this.#collect(item, staged);
    const seen = new Set<string>();
    for (const { tool } of staged) {
      if (seen.has(tool.name)) throw new ConfigurationError(`Tool ${tool.name} appears twice in one registration.`);
      seen.add(tool.name);
      if (!options.update && this.#entries.has(tool.name)) {
        throw new ConfigurationError(`Tool ${tool.name} is already registered; pass { update: true } to replace it.`);
      }
    }
    for (const entry of staged) this.#entries.set(entry.tool.name, entry);
    return staged.map((entry) => entry.tool);
  }

  /**
   * Inserts entries that were already built elsewhere, keeping their provenance (used by `Branch.clone()`).
   * Duplicate names throw like {@link ToolRegistry.register}.
   */
  adopt(entries: readonly RegistryEntry[], options: RegisterOptions = {}): void {
    for (const entry of entries) {
      if (!options.update && this.#entries.has(entry.tool.name)) {
        throw new ConfigurationError(
          `Tool ${entry.tool.name} is already registered; pass { update: true } to replace it.`,
        );
      }
    }
    for (const entry of entries)
      this.#entries.set(
        entry.tool.name,
        entry.provider ? { tool: entry.tool, provider: entry.provider } : { tool: entry.tool },
      );
  }

  #collect(item: Registrable, out: RegistryEntry[]): void {
    if (Array.isArray(item)) {
      for (const child of item) this.#collect(child, out);
      return;
    }
    if (isProvider(item)) {
      if (item.scope === 'branch' && !this.#context) {
        throw new ConfigurationError(`Provider ${item.name} is branch-scoped; register it on a Branch.`);
      }
      const context = this.#context?.() ?? { branch: undefined as never };
      const tools = item.build(context);
      for (const tool of tools) {
        if (!isTool(tool)) throw new ConfigurationError(`Provider ${item.name} built something that is not a Tool.`);
        out.push({ tool, provider: item });
      }
      return;
    }
    if (isTool(item)) {
      out.push({ tool: item });
      return;
    }
    throw new ConfigurationError('Only Tools, Providers, or lists of them can be registered.');
  }

  /** Adds registry-level hooks for one tool name or '*' (all tools); they run before each tool's own hooks. */
  addHooks(name: string, hooks: ToolHooks): void {
    const list = this.#hooks.get(name) ?? [];
    list.push(hooks);
    this.#hooks.set(name, list);
  }

  /** The registry-level hooks, by name, in insertion order (used when cloning). */
  hooks(): ReadonlyMap<string, readonly ToolHooks[]> {
    return this.#hooks;
  }

  /** Removes a tool by name; returns whether it was present. */
  remove(name: string): boolean {
    return this.#entries.delete(name);
  }

  get(name: string): Tool | undefined {
    return this.#entries.get(name)?.tool;
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** The provider that built a tool (provenance), or undefined for directly registered tools. */
  providerOf(name: string): Provider | undefined {
    return this.#entries.get(name)?.provider;
  }

  /** Tools in registration order. */
  list(): Tool[] {
    return [...this.#entries.values()].map((entry) => entry.tool);
  }

  /** Entries (tool + provenance) in registration order. */
  entries(): RegistryEntry[] {
    return [...this.#entries.values()];
  }

  names(): string[] {
    return [...this.#entries.keys()];
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Validates and runs one call; never throws — unknown tools and bad arguments come back as failed calls. */
  async invoke(name: string, args: unknown, options: ExecuteOptions = {}): Promise<ToolCall> {
    const entry = this.#entries.get(name);
    if (!entry) {
      const call = new ToolCall(name, args, options.callId);
      call.startedAt = Date.now();
      const available = this.names();
      return call.fail(
        CallErrorCode.unknownTool,
        `No tool named ${JSON.stringify(name)}. Available tools: ${available.length ? available.join(', ') : '(none)'}.`,
      );
    }
    const star = this.#hooks.get('*');
    const own = this.#hooks.get(name);
    const hooks = star && own ? [...star, ...own] : (star ?? own);
    const merged = options.hooks ? [...options.hooks, ...(hooks ?? [])] : hooks;
    return executeTool(entry.tool, args, merged ? { ...options, hooks: merged } : options);
  }
}
