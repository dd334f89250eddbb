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

// One job store per branch: bash (for every root it runs in) and jobs share it; a clone's branch gets a new one.
const jobStores = new WeakMap<object, JobStore>();
const allStores = new Set<JobStore>();

/** The background jobs of the branch a build is for (created on first use, disposed if the build is abandoned). */
export function branchJobs(context: ProviderContext, options: Record<string, unknown>): JobStore {
  let store = jobStores.get(context.branch);
  if (!store) {
    const limits = typeof options.limits === 'object' && options.limits !== null ? options.limits : {};
    store = new JobStore(limits);
    jobStores.set(context.branch, store);
    allStores.add(store);
    const created = store;
    context.abandoned?.addEventListener('abort', () => void created.dispose(), { once: true });
  }
  return store;
}

/** Kills the background jobs of every branch the toolkit built bash for (the toolkit provider's `dispose`). */
export async function disposeAllJobs(): Promise<void> {
  await Promise.all([...allStores].map((store) => store.dispose()));
}

/** The standalone tools behind the toolkit, by model-facing name (ADR Delta 3: composition, not re-implementation). */
export const STANDARD_SOURCES: readonly ToolSource[] = Object.freeze([
  { name: 'reader', role: 'read', make: (root, _c, o) => createReaderTool({ ...o, workspaceRoot: root }) },
  { name: 'editor', role: 'write', make: (root, _c, o) => createEditorTool(editorOptions(root, o)) },
  {
    name: 'bash',
    role: 'plain',
    make: (root, c, o) => createBashTool({ ...o, workspaceRoot: root, jobs: branchJobs(c, o) }),
  },
  { name: 'jobs', role: 'plain', make: (_root, c, o) => createJobsTool(branchJobs(c, o)) },
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
