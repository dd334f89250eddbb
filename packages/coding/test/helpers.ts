// Test helpers of @bough/coding: a branch with the toolkit registered, and one call through it. Shared helpers
// (temporary workspaces, git set-up, file digests) are in @bough/test-utils.
import { Branch, type ChatModel, type ToolCall } from '@bough/core';
import type { AnyToolSource } from '../src/tool-sources.js';
import { type CodingToolkitOptions, codingToolkit } from '../src/toolkit.js';

/** A branch on a workspace with the toolkit registered (from `sources` when given). */
export function toolkitBranch(
  root: string,
  options: CodingToolkitOptions = {},
  extra: { model?: ChatModel; sources?: readonly AnyToolSource[] } = {},
): Branch {
  const branch = new Branch({ workspaceRoot: root, system: 'test', ...(extra.model ? { model: extra.model } : {}) });
  branch.registerTools(extra.sources ? codingToolkit(options, extra.sources) : codingToolkit(options));
  return branch;
}

/** Runs one call through `branch.act` and returns its output as a plain record. */
export async function call(branch: Branch, name: string, args: unknown): Promise<Record<string, unknown>> {
  const done: ToolCall = await branch.act({ name, arguments: args });
  return done.output as Record<string, unknown>;
}
