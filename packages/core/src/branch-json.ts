import { z } from 'zod';
import { CloneError, ConfigurationError } from './bough-error.js';
import { type Branch, type BranchOptions, restoreBranch } from './branch.js';
import { describeZodError } from './errors.js';
import type { Message } from './messages.js';
import type { Registrable } from './registry.js';

/** The `format` tag of {@link BranchJson}; a loader refuses any other. */
export const BRANCH_JSON_FORMAT = 'bough.branch/1';

/** A tool the saved branch had: its name, the provider that built it, and whether loading can build it again. */
export interface BranchJsonTool {
  readonly name: string;
  readonly provider?: string;
  /** False for a bound tool registered without a provider, or from a provider that refuses to rebind. */
  readonly rebuildable: boolean;
}

/** A branch as plain JSON: messages (ids and timestamps kept), the active view, metadata and the tools it had. */
export interface BranchJson {
  readonly format: typeof BRANCH_JSON_FORMAT;
  readonly id: string;
  readonly name?: string;
  readonly clonedFrom?: string;
  readonly metadata: Record<string, unknown>;
  readonly messages: readonly Message[];
  readonly active: readonly string[];
  readonly tools: readonly BranchJsonTool[];
}

/** Options of {@link branchFromJson}: what a saved branch cannot carry (model, workspace root, tool providers). */
export interface BranchFromJsonOptions extends Omit<BranchOptions, 'id' | 'name' | 'system'> {
  /** Tools and providers to register; branch-scoped providers build against the loaded branch. */
  readonly tools?: Registrable;
  /** What to do with saved tools that cannot be built again: throw a `CloneError` naming them (default) or leave them out. */
  readonly unbound?: 'error' | 'drop';
}

/** Snapshot of a branch as JSON-safe data (tools are described by name and provider, never serialised). */
export function branchToJson(branch: Branch): BranchJson {
  const tools = branch.registry.entries().map(({ tool, provider }) => ({
    name: tool.name,
    ...(provider ? { provider: provider.name } : {}),
    rebuildable: provider ? !(provider.scope === 'branch' && provider.rebind === 'reject') : tool.scope !== 'branch',
  }));
  return {
    format: BRANCH_JSON_FORMAT,
    id: branch.id,
    ...(branch.name !== undefined ? { name: branch.name } : {}),
    ...(branch.clonedFrom !== undefined ? { clonedFrom: branch.clonedFrom } : {}),
    metadata: { ...branch.metadata },
    messages: branch.messages.map((message) => JSON.parse(JSON.stringify(message)) as Message),
    active: [...branch.activeIds()],
    tools,
  };
}

const MessageSchema = z.object({
  id: z.string().min(1),
  role: z.enum(['system', 'user', 'assistant', 'action_request', 'action_response']),
  content: z.union([z.string(), z.record(z.string(), z.unknown())]),
  createdAt: z.number(),
  sender: z.string().optional(),
  recipient: z.string().optional(),
  origin: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()),
});

const BranchJsonSchema = z.object({
  format: z.literal(BRANCH_JSON_FORMAT),
  id: z.string().min(1),
  name: z.string().optional(),
  clonedFrom: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()),
  messages: z.array(MessageSchema),
  active: z.array(z.string()),
  tools: z.array(z.object({ name: z.string(), provider: z.string().optional(), rebuildable: z.boolean() })),
});

/**
 * Loads a {@link BranchJson}: the same id, messages, active view and metadata; tools come from `options.tools`, built
 * against the loaded branch. Like `clone`, a saved tool that cannot be built again (bound without a provider, or its
 * provider refuses to rebind) or that the given providers no longer build makes loading throw a `CloneError` naming
 * the tools, unless `unbound: 'drop'`. Malformed JSON throws a `ConfigurationError` saying what is wrong.
 */
export function branchFromJson(json: unknown, options: BranchFromJsonOptions = {}): Branch {
  const parsed = BranchJsonSchema.safeParse(json);
  if (!parsed.success) throw new ConfigurationError(`Not a saved bough branch: ${describeZodError(parsed.error)}`);
  const saved = parsed.data;
  const unbound = saved.tools.filter((tool) => !tool.rebuildable).map((tool) => tool.name);
  if (unbound.length > 0 && options.unbound !== 'drop') {
    throw new CloneError(
      `Cannot load branch ${saved.name ?? saved.id}: these tools were bound to it and cannot be rebuilt: ${unbound.join(', ')}. ` +
        `Register them through a provider that can rebuild, or load with { unbound: 'drop' }.`,
      unbound,
    );
  }
  const { tools, unbound: _mode, ...branchOptions } = options;
  const branch = restoreBranch(
    { ...branchOptions, id: saved.id, ...(saved.name !== undefined ? { name: saved.name } : {}) },
    {
      ...(saved.clonedFrom !== undefined ? { clonedFrom: saved.clonedFrom } : {}),
      metadata: saved.metadata,
      messages: saved.messages as Message[],
      active: saved.active,
    },
  );
  if (tools !== undefined) branch.registerTools(tools);
  const have = new Set(branch.tools.map((tool) => tool.name));
  const missing = saved.tools.filter((tool) => tool.rebuildable && !have.has(tool.name)).map((tool) => tool.name);
  if (missing.length > 0 && options.unbound !== 'drop') {
    throw new CloneError(
      `Cannot load branch ${saved.name ?? saved.id}: the tools given did not build these saved tools: ${missing.join(', ')}. ` +
        `Pass the providers that built them, or load with { unbound: 'drop' } to leave them out.`,
      missing,
    );
  }
  return branch;
}
