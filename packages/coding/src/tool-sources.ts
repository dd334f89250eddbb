import { createAstSearchTool } from '@bough/ast-search';
import { createBashTool, createJobsTool, JobStore } from '@bough/bash';
import { createCodeCheckTool } from '@bough/check';
import { type ContextToolOptions, contextProvider } from '@bough/context';
import { ConfigurationError, type ProviderContext, type Tool } from '@bough/core';
import { createEditorTool } from '@bough/editor';
import { createCodeNavTool } from '@bough/nav';
import { createReaderTool } from '@bough/reader';
import { createSearchTool } from '@bough/search';
import { createSandboxTool, type SandboxToolOptions } from './sandbox-tool.js';
import { createSubagentTool } from './subagent-tool.js';
import type { ToolkitBuild } from './toolkit-build.js';

/**
 * What a source's results are evidence of: `read` results show file content (they feed the file state the
 * read-before-edit guard consults), `write` requests change files (the guard checks them first and their results are
 * recorded), `none` neither.
 */
export type SourceEvidence = 'read' | 'write' | 'none';

/**
 * Where a source's tool lives: `workspace` tools are built per root (they follow the sandbox worktree), `branch`
 * tools are bound to the branch once (context), `toolkit` tools work on the build's own state (sandbox, subagent).
 */
export type SourceScope = 'workspace' | 'branch' | 'toolkit';

/**
 * One tool the toolkit composes: its model-facing name, where it lives, what evidence its results carry, the options
 * a caller may give it (`toolOptions[name]`), and how to build it. `build` is given to `toolkit` sources only.
 */
export interface ToolSource<Options extends object = Record<string, unknown>> {
  readonly name: string;
  readonly scope: SourceScope;
  readonly evidence: SourceEvidence;
  /** Builds the tool for a workspace root (the sandbox worktree while one is active). */
  readonly make: (root: string, context: ProviderContext, options: Options, build?: ToolkitBuild) => Tool;
}

/** A source of any options type, as a list of sources holds them. */
// biome-ignore lint/suspicious/noExplicitAny: a list of sources holds each source with its own options type
export type AnyToolSource = ToolSource<any>;

type OptionsOf<F extends (options: never) => unknown> = Omit<NonNullable<Parameters<F>[0]>, 'workspaceRoot'>;

/** The options a caller may pass to each standard source through `toolOptions` (the root is always the toolkit's). */
export interface CodingToolOptions {
  readonly reader?: OptionsOf<typeof createReaderTool>;
  readonly editor?: OptionsOf<typeof createEditorTool>;
  /** Also the options of `jobs` (they share the job store and its limits). */
  readonly bash?: OptionsOf<typeof createBashTool>;
  readonly search?: OptionsOf<typeof createSearchTool>;
  readonly code_check?: OptionsOf<typeof createCodeCheckTool>;
  readonly code_nav?: OptionsOf<typeof createCodeNavTool>;
  readonly ast_search?: OptionsOf<typeof createAstSearchTool>;
  readonly context?: ContextToolOptions;
}

function needBuild(name: string, build: ToolkitBuild | undefined): ToolkitBuild {
  if (!build)
    throw new ConfigurationError(`The ${name} tool works on a toolkit build's state; add it through codingToolkit.`);
  return build;
}

/**
 * The editor as the toolkit needs it: every successful write must report its `sha256`, since the read-before-edit
 * guard records it as what the branch last saw; without it the next edit of a big file would fail with `not_read`.
 */
function editorOptions(root: string, o: OptionsOf<typeof createEditorTool>): Parameters<typeof createEditorTool>[0] {
  return { ...o, limits: { ...o.limits, hashMaxBytes: Number.MAX_SAFE_INTEGER }, workspaceRoot: root };
}

/**
 * The background jobs a bash or jobs tool works with: the store the toolkit made for the build (`options.jobs`), or a
 * new one for a source used on its own.
 */
function jobStore(options: OptionsOf<typeof createBashTool>): JobStore {
  if (options.jobs instanceof JobStore) return options.jobs;
  return new JobStore(options.limits ?? {});
}

/** Declares a source with its own options type (the list below holds sources of different options). */
const source = <Options extends object>(spec: ToolSource<Options>): ToolSource<Options> => Object.freeze(spec);

/**
 * Every tool behind the toolkit, by model-facing name: the standalone tools (ADR Delta 3: composition, not
 * re-implementation), the context tool, and the toolkit's own sandbox and subagent.
 */
export const STANDARD_SOURCES: readonly AnyToolSource[] = Object.freeze([
  source<OptionsOf<typeof createReaderTool>>({
    name: 'reader',
    scope: 'workspace',
    evidence: 'read',
    make: (root, _c, o) => createReaderTool({ ...o, workspaceRoot: root }),
  }),
  source<OptionsOf<typeof createEditorTool>>({
    name: 'editor',
    scope: 'workspace',
    evidence: 'write',
    make: (root, _c, o) => createEditorTool(editorOptions(root, o)),
  }),
  source<OptionsOf<typeof createBashTool>>({
    name: 'bash',
    scope: 'workspace',
    evidence: 'none',
    make: (root, _c, o) => createBashTool({ ...o, workspaceRoot: root, jobs: jobStore(o) }),
  }),
  source<OptionsOf<typeof createBashTool>>({
    name: 'jobs',
    scope: 'workspace',
    evidence: 'none',
    make: (_root, _c, o) => createJobsTool(jobStore(o)),
  }),
  source<OptionsOf<typeof createSearchTool>>({
    name: 'search',
    scope: 'workspace',
    evidence: 'none',
    make: (root, _c, o) => createSearchTool({ ...o, workspaceRoot: root }),
  }),
  source<OptionsOf<typeof createCodeCheckTool>>({
    name: 'code_check',
    scope: 'workspace',
    evidence: 'none',
    make: (root, _c, o) => createCodeCheckTool({ ...o, workspaceRoot: root }),
  }),
  source<OptionsOf<typeof createCodeNavTool>>({
    name: 'code_nav',
    scope: 'workspace',
    evidence: 'none',
    make: (root, _c, o) => createCodeNavTool({ ...o, workspaceRoot: root }),
  }),
  source<OptionsOf<typeof createAstSearchTool>>({
    name: 'ast_search',
    scope: 'workspace',
    evidence: 'none',
    make: (root, _c, o) => createAstSearchTool({ ...o, workspaceRoot: root }),
  }),
  source<ContextToolOptions>({
    name: 'context',
    scope: 'branch',
    evidence: 'none',
    make: (_root, context, o) => contextProvider(o).build(context)[0] as Tool,
  }),
  source<SandboxToolOptions>({
    name: 'sandbox',
    scope: 'toolkit',
    evidence: 'none',
    make: (_root, _c, o, build) => {
      const { state, limits, hooks, allowProtected } = needBuild('sandbox', build);
      return createSandboxTool(
        state,
        { maxPatchChars: limits.sandboxPatchChars, timeoutMs: limits.gitTimeoutMs, ...o, allowProtected },
        hooks,
      );
    },
  }),
  source<Record<string, never>>({
    name: 'subagent',
    scope: 'toolkit',
    evidence: 'none',
    make: (_root, _c, _o, build) => {
      const b = needBuild('subagent', build);
      return createSubagentTool(
        b.state,
        {
          parentPreset: b.parentPreset,
          fallbackModel: b.model,
          answerChars: b.limits.subagentAnswerChars,
          defaultTurns: b.limits.subagentDefaultTurns,
          maxTurns: b.limits.subagentMaxTurns,
          childToolkit: b.childToolkit,
        },
        b.hooks,
      );
    },
  }),
]);
