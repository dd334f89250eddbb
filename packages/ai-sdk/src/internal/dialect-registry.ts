import { type CodingToolkitOptions, codingToolkit, PROFILE_NEEDS } from '@bough/coding';
import { Branch, ConfigurationError, ToolRegistry } from '@bough/core';

/**
 * What the dialect tool sets run on: a registry that already holds bough's `reader`, `editor` and `bash` tools (a
 * Branch's registry with the coding toolkit, or the standalone tools), or the options of a coding toolkit to build
 * on a fresh Branch for `workspaceRoot`.
 */
export type DialectSource = ToolRegistry | { readonly registry: ToolRegistry } | DialectToolkitOptions;

/** Options that build a coding toolkit (only the tools the dialect calls) for the dialect tools. */
export interface DialectToolkitOptions extends Omit<CodingToolkitOptions, 'tools' | 'workspaceRoot'> {
  /** The directory the tools work in. */
  readonly workspaceRoot: string;
}

/**
 * The registry calls go to: the given one (refused, naming what is missing, when it lacks a tool the profile calls),
 * or a new toolkit's on its own Branch holding exactly the profile's {@link PROFILE_NEEDS}.
 */
export function dialectRegistry(source: DialectSource, profile: 'anthropic' | 'openai'): ToolRegistry {
  const needs = PROFILE_NEEDS[profile];
  if (source instanceof ToolRegistry || 'registry' in source) {
    const registry = source instanceof ToolRegistry ? source : source.registry;
    const missing = needs.filter((name) => !registry.has(name));
    if (missing.length > 0) {
      throw new ConfigurationError(`The ${profile} tools call ${missing.join(', ')}; register it on the registry.`);
    }
    return registry;
  }
  const { workspaceRoot, ...rest } = source;
  const branch = new Branch({ name: 'dialect', workspaceRoot });
  branch.registerTools(codingToolkit({ ...rest, workspaceRoot, tools: needs }));
  return branch.registry;
}
