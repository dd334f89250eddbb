import { accessSync, constants, lstatSync, realpathSync, type Stats, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { astSearchProvider } from '@bough/ast-search';
import { type BashToolSet, createBashTools } from '@bough/bash';
import { codeCheckProvider } from '@bough/check';
import { type CodingToolkitOptions, codingToolkit, DEFAULT_CODING_TOOLS } from '@bough/coding';
import { Branch, type ChatModel, ConfigurationError, ToolRegistry } from '@bough/core';
import { editorProvider } from '@bough/editor';
import { codeNavProvider } from '@bough/nav';
import { readerProvider } from '@bough/reader';
import { searchProvider } from '@bough/search';
import type { ProtectedNamePolicy } from '@bough/workspace';
import { UsageError } from './args.js';

/**
 * Resolves and checks the `--workspace` directory (default: the current directory). A symlink to a directory is
 * followed once, here, and the real path is used from then on; anything that is not a readable directory is a usage
 * error naming what was wrong.
 */
export function workspaceRoot(dir: string | undefined, cwd: string): string {
  const path = resolve(cwd, dir ?? '.');
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      const dangling = lstatExists(path) ? ' (it is a link to nothing)' : '';
      throw new UsageError(`--workspace ${path} does not exist${dangling}.`);
    }
    if (code === 'ELOOP') throw new UsageError(`--workspace ${path} is a symlink loop.`);
    throw new UsageError(`--workspace ${path} cannot be used (${code ?? 'unknown error'}).`);
  }
  if (!stats.isDirectory()) throw new UsageError(`--workspace ${path} is not a directory; pass the project folder.`);
  try {
    accessSync(path, constants.R_OK | constants.X_OK);
  } catch {
    throw new UsageError(`--workspace ${path} is not readable by this user.`);
  }
  return realpathSync(path);
}

function lstatExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The tool names a CLI toolkit or tool set registers: `only` when given, else `defaults` (the toolkit's), with `jobs`
 * added wherever `bash` is, since bash accepts `background: true` and `jobs` is the only way to read or stop such a
 * job. Every front door of the CLI resolves its tool list here, so "bash means jobs too" is decided once.
 */
export function cliToolNames(
  only: readonly string[] | undefined,
  defaults: readonly string[] = DEFAULT_CODING_TOOLS,
): string[] {
  const names = only ?? defaults;
  return names.includes('bash') && !names.includes('jobs') ? [...names, 'jobs'] : [...names];
}

/** How the standalone tools are built: editor fsync, and the OS sandbox of bash (off unless asked). */
export interface StandaloneOptions {
  readonly durable?: boolean;
  readonly sandbox?: 'off' | 'auto' | 'required';
  readonly network?: boolean;
}

/** The stateless tools, each used exactly as its package ships it; `durable` makes the editor fsync its writes. */
export function standaloneRegistry(
  root: string,
  only?: readonly string[],
  options: StandaloneOptions = {},
): ToolRegistry {
  return standaloneTools(root, only, options).registry;
}

/** {@link standaloneRegistry} with the bash set behind it, whose `dispose` ends the background jobs it started. */
export function standaloneTools(
  root: string,
  only: readonly string[] | undefined,
  { durable = false, sandbox, network }: StandaloneOptions = {},
): { registry: ToolRegistry; bash: BashToolSet } {
  const registry = new ToolRegistry();
  const options = { workspaceRoot: root };
  // bash and jobs share one job store: jobs started by this registry's bash belong to it.
  const bash = createBashTools({
    ...options,
    ...(sandbox ? { sandbox } : {}),
    ...(network ? { network } : {}),
  });
  registry.register([
    readerProvider(options),
    editorProvider(durable ? { ...options, durable } : options),
    ...bash.tools,
    searchProvider(options),
    codeCheckProvider(options),
    codeNavProvider(options),
    astSearchProvider(options),
  ]);
  return { registry: only ? subset(registry, cliToolNames(only)) : registry, bash };
}

/** A branch carrying the coding toolkit (read-before-edit guard, context tool, …) over the workspace. */
export function toolkitBranch(
  root: string,
  options: {
    tools?: readonly string[];
    model?: ChatModel;
    permissions?: CodingToolkitOptions['permissions'];
    onAsk?: CodingToolkitOptions['onAsk'];
    commandSandbox?: CodingToolkitOptions['commandSandbox'];
    network?: boolean;
    /** Names every tool, the guard and the OS sandbox keep from the model, in place of the workspace's default list. */
    protectedNames?: ProtectedNamePolicy;
    /** Checkpoint every mutating call and add the `checkpoints` tool (see {@link toolkitProvider}). */
    checkpoints?: CodingToolkitOptions['checkpoints'];
  } = {},
): Branch {
  return ownedToolkitBranch(root, options).branch;
}

/** What a server front door sets besides the options {@link toolkitBranch} takes (`bough mcp`'s branch). */
export interface ServedToolkitOptions {
  /** The branch's name (default `cli`). */
  name?: string;
  /** The tools when no `tools` list is given (default the toolkit's default list). */
  defaultTools?: readonly string[];
  /** `false`: no nudge notes (they describe a conversation, which a server does not hold). */
  notify?: false;
  /** The editor fsyncs each new content before putting it in place. */
  durable?: boolean;
}

/**
 * {@link toolkitBranch} with the toolkit's `dispose`, which ends the language servers and background jobs its tools
 * started (and returns once their processes are gone): for commands that must not leave them behind.
 */
export function ownedToolkitBranch(
  root: string,
  options: Parameters<typeof toolkitBranch>[1] & ServedToolkitOptions = {},
): { branch: Branch; dispose: () => Promise<void> } {
  const name = options.name ?? 'cli';
  const branch = new Branch({ name, workspaceRoot: root, ...(options.model ? { model: options.model } : {}) });
  try {
    const toolkit = toolkitProvider(root, options);
    branch.registerTools(toolkit);
    return { branch, dispose: () => toolkit.dispose() };
  } catch (error) {
    // A bad `--tools` list is the user's input, not a fault of the toolkit.
    if (options.tools && error instanceof ConfigurationError) throw new UsageError(error.message);
    throw error;
  }
}

/** The coding toolkit provider the CLI registers (also used to rebuild a resumed session's tools). */
export function toolkitProvider(
  root: string,
  options: {
    tools?: readonly string[];
    permissions?: CodingToolkitOptions['permissions'];
    onAsk?: CodingToolkitOptions['onAsk'];
    commandSandbox?: CodingToolkitOptions['commandSandbox'];
    network?: boolean;
    /** Names every tool, the guard and the OS sandbox keep from the model, in place of the workspace's default list. */
    protectedNames?: ProtectedNamePolicy;
    /** Checkpoint every mutating call and add the `checkpoints` tool (the toolkit's option; default off). */
    checkpoints?: CodingToolkitOptions['checkpoints'];
  } & Omit<ServedToolkitOptions, 'name'> = {},
) {
  return codingToolkit({
    tools: cliToolNames(options.tools, options.defaultTools),
    ...(options.notify === false ? { notify: false } : {}),
    ...(options.durable ? { toolOptions: { editor: { durable: true } } } : {}),
    ...(options.commandSandbox ? { commandSandbox: options.commandSandbox } : {}),
    ...(options.network ? { network: true } : {}),
    workspaceRoot: root,
    ...(options.permissions ? { permissions: options.permissions } : {}),
    ...(options.onAsk ? { onAsk: options.onAsk } : {}),
    // Set once for the toolkit: every tool, the guard and the OS sandbox of commands follow it.
    ...(options.protectedNames ? { protectedNames: options.protectedNames } : {}),
    ...(options.checkpoints ? { checkpoints: options.checkpoints } : {}),
  });
}

function subset(registry: ToolRegistry, only: readonly string[]): ToolRegistry {
  const unknown = only.filter((name) => !registry.has(name));
  if (unknown.length > 0) {
    throw new UsageError(`Unknown tool(s): ${unknown.join(', ')}. Available: ${registry.names().join(', ')}.`);
  }
  const picked = new ToolRegistry();
  picked.register(registry.list().filter((tool) => only.includes(tool.name)));
  return picked;
}

/** Splits a `--tools a,b,c` value. */
export function toolList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError('--tools needs at least one tool name.');
  return names;
}
