import { createAstSearchTool } from '@bough/ast-search';
import { createBashTool, createJobsTool, JobStore } from '@bough/bash';
import { createCodeCheckTool } from '@bough/check';
import { contextProvider } from '@bough/context';
import type { ProviderContext, Tool } from '@bough/core';
import { createEditorTool } from '@bough/editor';
import { createCodeNavTool } from '@bough/nav';
import { createReaderTool } from '@bough/reader';
import { createSearchTool } from '@bough/search';

/** How the toolkit treats a standalone tool: which root it runs in and which state it feeds or checks. */
export type ToolRole = 'read' | 'write' | 'plain' | 'branch';

/** One standalone tool the toolkit composes: its model-facing name, role, and how to build it for a root. */
export interface ToolSource {
  readonly name: string;
  readonly role: ToolRole;
  /** Builds the standalone tool for a workspace root (the sandbox worktree while one is active). */
  readonly make: (root: string, context: ProviderContext, options: Record<string, unknown>) => Tool;
}

/**
 * The editor as the toolkit needs it: every successful write must report its `sha256`, since the read-before-edit
 * guard records it as what the branch last saw; without it the next edit of a big file would fail with `not_read`.
 */
function editorOptions(root: string, o: Record<string, unknown>): Parameters<typeof createEditorTool>[0] {
  const limits = typeof o.limits === 'object' && o.limits !== null ? o.limits : {};
  return { ...o, limits: { ...limits, hashMaxBytes: Number.MAX_SAFE_INTEGER }, workspaceRoot: root };
}

/**
 * The background jobs a bash or jobs tool works with: the store the toolkit made for the build (`options.jobs`), or a
 * new one for a source used on its own.
 */
function jobStore(options: Record<string, unknown>): JobStore {
  if (options.jobs instanceof JobStore) return options.jobs;
  const limits = typeof options.limits === 'object' && options.limits !== null ? options.limits : {};
  return new JobStore(limits);
}

/** The standalone tools behind the toolkit, by model-facing name (ADR Delta 3: composition, not re-implementation). */
export const STANDARD_SOURCES: readonly ToolSource[] = Object.freeze([
  { name: 'reader', role: 'read', make: (root, _c, o) => createReaderTool({ ...o, workspaceRoot: root }) },
  { name: 'editor', role: 'write', make: (root, _c, o) => createEditorTool(editorOptions(root, o)) },
  {
    name: 'bash',
    role: 'plain',
    make: (root, _c, o) => createBashTool({ ...o, workspaceRoot: root, jobs: jobStore(o) }),
  },
  { name: 'jobs', role: 'plain', make: (_root, _c, o) => createJobsTool(jobStore(o)) },
  { name: 'search', role: 'plain', make: (root, _c, o) => createSearchTool({ ...o, workspaceRoot: root }) },
  { name: 'code_check', role: 'plain', make: (root, _c, o) => createCodeCheckTool({ ...o, workspaceRoot: root }) },
  { name: 'code_nav', role: 'plain', make: (root, _c, o) => createCodeNavTool({ ...o, workspaceRoot: root }) },
  { name: 'ast_search', role: 'plain', make: (root, _c, o) => createAstSearchTool({ ...o, workspaceRoot: root }) },
  {
    name: 'context',
    role: 'branch',
    make: (_root, context, o) => contextProvider(o).build(context)[0] as Tool,
  },
]);
