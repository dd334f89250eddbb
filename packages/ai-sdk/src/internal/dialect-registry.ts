import { type CodingToolkitOptions, codingToolkit } from '@bough/coding';
import { Branch, ToolRegistry } from '@bough/core';

/**
 * What the dialect tool sets run on: a registry that already holds bough's `reader`, `editor` and `bash` tools (a
 * Branch's registry with the coding toolkit, or the standalone tools), or the options of a coding toolkit to build
 * on a fresh Branch for `workspaceRoot`.
 */
export type DialectSource = ToolRegistry | { readonly registry: ToolRegistry } | DialectToolkitOptions;

/** Options that build a coding toolkit (reader, editor and bash only) for the dialect tools. */
export interface DialectToolkitOptions extends Omit<CodingToolkitOptions, 'tools' | 'workspaceRoot'> {
  /** The directory the tools work in. */
  readonly workspaceRoot: string;
}

/** The registry calls go to: the given one, or a new toolkit's on its own Branch. */
export function dialectRegistry(source: DialectSource): ToolRegistry {
  if (source instanceof ToolRegistry) return source;
  if ('registry' in source) return source.registry;
  const { workspaceRoot, ...rest } = source;
  const branch = new Branch({ name: 'dialect', workspaceRoot });
  branch.registerTools(codingToolkit({ ...rest, workspaceRoot, tools: ['reader', 'editor', 'bash'] }));
  return branch.registry;
}
