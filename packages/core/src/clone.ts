import { CloneError } from './bough-error.js';
import { errorMessage } from './errors.js';
import type { Provider, ProviderContext } from './provider.js';
import type { RegistryEntry, ToolRegistry } from './registry.js';
import { isTool, type Tool } from './tool.js';

/** Options for `Branch.clone`. */
export interface CloneOptions {
  /** What to do with bound tools that cannot be rebuilt: throw (default) or leave them out of the clone. */
  readonly unbound?: 'error' | 'drop';
  readonly name?: string;
}

/** The parts of a branch cloning reads from the source. */
interface CloneSource {
  readonly id: string;
  readonly name: string | undefined;
  readonly registry: ToolRegistry;
}

/** The parts of a fresh clone that cloning fills in. */
interface CloneTarget {
  readonly registry: ToolRegistry;
  providerContext(): ProviderContext;
}

/**
 * The tool half of a clone (ADR-0013 Delta 2): refuses before anything is built when bound tools cannot be rebuilt
 * (unless `unbound: 'drop'`), then makes the clone, copies registry hooks, shares stateless tools and builds each
 * branch-scoped provider again against the clone. If any provider fails, providers already built for the clone see
 * `context.abandoned` abort, so they can undo what they did outside the branch.
 */
export function cloneTools<T extends CloneTarget>(source: CloneSource, options: CloneOptions, make: () => T): T {
  const entries = source.registry.entries();
  const unbound = unboundTools(entries);
  const label = source.name ?? source.id;
  if (unbound.length > 0 && options.unbound !== 'drop') {
    throw new CloneError(
      `Cannot clone branch ${label}: these tools are bound to it and cannot be rebuilt: ${unbound.join(', ')}. ` +
        `Register them through a provider that can rebuild, or clone with { unbound: 'drop' }.`,
      unbound,
    );
  }
  const clone = make();
  for (const [name, list] of source.registry.hooks()) for (const hooks of list) clone.registry.addHooks(name, hooks);
  const abandon = new AbortController();
  const context: ProviderContext = { ...clone.providerContext(), abandoned: abandon.signal };
  try {
    const staged = rebuildEntries(entries, unbound, context);
    if (staged.missing.length > 0 && options.unbound !== 'drop') {
      throw new CloneError(
        `Cannot clone branch ${label}: building again for the clone did not produce these tools: ${staged.missing.join(', ')}. ` +
          `Fix the provider, or clone with { unbound: 'drop' } to leave them out.`,
        staged.missing,
      );
    }
    clone.registry.adopt(staged.entries);
  } catch (error) {
    abandon.abort(error);
    throw error;
  }
  return clone;
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

/** Tools that cannot follow a clone: a provider that rejects rebinding, or a bound tool registered without one. */
function unboundTools(entries: readonly RegistryEntry[]): string[] {
  const unbound: string[] = [];
  for (const { tool, provider } of entries) {
    if (provider) {
      if (provider.scope === 'branch' && provider.rebind === 'reject') unbound.push(tool.name);
    } else if (tool.scope === 'branch') {
      unbound.push(tool.name);
    }
  }
  return unbound;
}
