import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { astSearchProvider } from '@branchkit/ast-search';
import { bashProvider } from '@branchkit/bash';
import { codeCheckProvider } from '@branchkit/check';
import { type CodingToolkitOptions, codingToolkit } from '@branchkit/coding';
import { Branch, type ChatModel, ToolRegistry } from '@branchkit/core';
import { editorProvider } from '@branchkit/editor';
import { codeNavProvider } from '@branchkit/nav';
import { readerProvider } from '@branchkit/reader';
import { searchProvider } from '@branchkit/search';
import { UsageError } from './args.js';

/** Resolves and checks the `--workspace` directory (default: the current directory). */
export function workspaceRoot(dir: string | undefined, cwd: string): string {
  const path = resolve(cwd, dir ?? '.');
  try {
    if (!statSync(path).isDirectory()) throw new UsageError(`--workspace ${path} is not a directory.`);
    return realpathSync(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--workspace ${path} does not exist.`);
  }
}

/** The stateless tools, each used exactly as its package ships it. */
export function standaloneRegistry(root: string, only?: readonly string[]): ToolRegistry {
  const registry = new ToolRegistry();
  const options = { workspaceRoot: root };
  registry.register([
    readerProvider(options),
    editorProvider(options),
    bashProvider(options),
    searchProvider(options),
    codeCheckProvider(options),
    codeNavProvider(options),
    astSearchProvider(options),
  ]);
  return only ? subset(registry, only) : registry;
}

/** A branch carrying the coding toolkit (read-before-edit guard, context tool, …) over the workspace. */
export function toolkitBranch(
  root: string,
  options: { tools?: readonly string[]; model?: ChatModel; permissions?: CodingToolkitOptions['permissions'] } = {},
): Branch {
  const branch = new Branch({ name: 'cli', workspaceRoot: root, ...(options.model ? { model: options.model } : {}) });
  branch.registerTools(
    codingToolkit({
      workspaceRoot: root,
      ...(options.tools ? { tools: options.tools } : {}),
      ...(options.permissions ? { permissions: options.permissions } : {}),
    }),
  );
  return branch;
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
