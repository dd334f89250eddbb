import { createAstSearchTool } from '@bough/ast-search';
import { type BashOptions, createBashTool, createJobsTool, JobStore } from '@bough/bash';
import { createCodeCheckTool } from '@bough/check';
import { type ContextToolOptions, contextProvider } from '@bough/context';
import { ConfigurationError, type PreHook, type ProviderContext, type Tool } from '@bough/core';
import { createEditorTool } from '@bough/editor';
import type { LspClient } from '@bough/lsp';
import { createCodeNavTool } from '@bough/nav';
import { type PermissionSubjectDescriber, STANDARD_PERMISSION_SUBJECTS } from '@bough/policy';
import { createReaderTool } from '@bough/reader';
import { createSearchTool } from '@bough/search';
import type { LinkRule, ProtectedNamePolicy } from '@bough/workspace';
import { commandsSandboxed } from './command-sandbox.js';
import { editorEvidence } from './editor-evidence.js';
import { protectedCommandHook } from './protected-command.js';
import { readerEvidence } from './reader-evidence.js';
import { createSandboxTool, type SandboxToolOptions } from './sandbox-tool.js';
import { NO_EVIDENCE, type SourceEvidence } from './source-evidence.js';
import { createSubagentTool } from './subagent-tool.js';
import type { SourceGuardSettings, ToolkitBuild } from './toolkit-build.js';

/**
 * Where a source's tool lives: `workspace` tools are built per root (they follow the sandbox worktree), `branch`
 * tools are bound to the branch once (context), `toolkit` tools work on the build's own state (sandbox, subagent).
 */
export type SourceScope = 'workspace' | 'branch' | 'toolkit';

/**
 * The toolkit settings a source takes its options from: the per-tool `toolOptions`, the `sandbox` settings, the
 * OS sandbox for commands, and the build's one background-job store (made on first use, with the limits given then).
 */
export interface SourceSettings {
  readonly toolOptions: CodingToolOptions;
  readonly sandbox: Omit<SandboxToolOptions, 'allowProtected'>;
  readonly commandSandbox?: 'off' | 'auto' | 'required';
  readonly network?: boolean;
  /** The permission policy's path deny rules as OS sandbox mounts, added to bash's own `denyRead` / `denyWrite`. */
  readonly sandboxDeny?: { readonly denyRead: readonly string[]; readonly denyWrite: readonly string[] };
  /** The toolkit's protected-name policy, for every tool that opens files (and the OS sandbox of commands). */
  readonly protectedNames?: ProtectedNamePolicy;
  /** Paths a tool must not show among what it finds (a deny rule of the permission policy names them), by tool. */
  readonly hidden?: (tool: string) => (relativePath: string) => boolean;
  /** Where a link on a touched path may lead (the policy's rules on the real path), by tool, when a policy is set. */
  readonly linkRule?: (tool: string) => LinkRule;
  /** The toolkit's language-server client of a root, for code_check and code_nav (absent when turned off). */
  readonly lspFor?: (root: string) => LspClient | undefined;
  jobs(limits: BashOptions['limits']): JobStore;
}

/**
 * One tool the toolkit composes: its model-facing name, where it lives, what evidence its calls carry (an
 * extractor typed against its own request and response), what its permission rules are matched against and what
 * checks its calls before them, which options it takes from the toolkit's settings (default `toolOptions[name]`),
 * and how to build it. `build` is given to `toolkit` sources only.
 */
// biome-ignore lint/suspicious/noExplicitAny: a source's request and response types default to those of any tool
export interface ToolSource<Options extends object = Record<string, unknown>, Request = any, Response = any> {
  readonly name: string;
  readonly scope: SourceScope;
  readonly evidence: SourceEvidence<Request, Response>;
  /**
   * The subject of a call, which the permission rules for this tool are matched against instead of the paths its
   * tool declares it touches (those then meet the deny rules only). Without it, the standard describer of the
   * source's name (`STANDARD_PERMISSION_SUBJECTS`: bash, subagent), else the touched paths are the subjects.
   */
  readonly permissionSubject?: PermissionSubjectDescriber;
  /** This source's options from the toolkit's settings; without it, `toolOptions[name]` (or none). */
  readonly options?: (settings: SourceSettings) => Options;
  /**
   * Whether this source's calls, built with these options, will run inside the OS sandbox: the policy's
   * `allowSandboxed` and the source's `guard` are told. Without it, never.
   */
  readonly sandboxed?: (options: Options) => boolean;
  /**
   * Its tool takes `settings.linkRule(name)` (a `toolkit` source: `build.linkRule(name)`) as its `linkRule` option and
   * opens every path a call touches through a workspace gate built with it, so where a link leads is judged by the
   * walk that opens the path; the permission check then matches the touched paths as asked. Without it, the check
   * follows links itself.
   */
  readonly gatesLinks?: boolean;
  /**
   * A pre hook the toolkit runs before the permission policy for this source's calls (bash: a plain command that
   * names a protected path is asked about or refused). Without it, only the policy decides.
   */
  readonly guard?: (settings: SourceGuardSettings) => PreHook;
  /** Builds the tool for a workspace root (the sandbox worktree while one is active). */
  readonly make: (
    root: string,
    context: ProviderContext,
    options: Options,
    build?: ToolkitBuild,
  ) => Tool<Request, Response>;
}

/** A source of any options, request and response types, as a list of sources holds them. */
// biome-ignore lint/suspicious/noExplicitAny: a list of sources holds each source with its own types
export type AnyToolSource = ToolSource<any, any, any>;

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

/**
 * bash and jobs share the bash options (limits, OS sandbox) and the build's job store; the toolkit's command
 * sandbox and network settings win over the per-tool ones.
 */
function commandOptions(settings: SourceSettings): OptionsOf<typeof createBashTool> {
  const own = settings.toolOptions.bash ?? {};
  return {
    ...withPolicy(settings, own),
    ...(settings.commandSandbox ? { sandbox: settings.commandSandbox } : {}),
    ...(settings.network !== undefined ? { network: settings.network } : {}),
    ...policyMounts(own, settings.sandboxDeny),
    jobs: settings.jobs(own.limits),
  };
}

/** bash's own deny mounts joined with the policy's (none added when the policy names no path). */
function policyMounts(own: OptionsOf<typeof createBashTool>, mounts: SourceSettings['sandboxDeny']): object {
  if (!mounts) return {};
  const join = (a: readonly string[] | undefined, b: readonly string[]) => [...new Set([...(a ?? []), ...b])];
  return {
    ...(mounts.denyRead.length > 0 ? { denyRead: join(own.denyRead, mounts.denyRead) } : {}),
    ...(mounts.denyWrite.length > 0 ? { denyWrite: join(own.denyWrite, mounts.denyWrite) } : {}),
  };
}

/** A tool's own options with the toolkit's protected-name policy, which wins over a per-tool one when set. */
function withPolicy<O extends object>(settings: SourceSettings, own: O | undefined): O {
  const options = (own ?? {}) as O;
  return settings.protectedNames ? { ...options, protectedNames: settings.protectedNames } : options;
}

/** A tool's options with the paths the policy withholds from what it shows (`hidden`), when a policy is set. */
function withHidden<O extends object>(settings: SourceSettings, tool: string, options: O): O {
  return settings.hidden ? { ...options, hidden: settings.hidden(tool) } : options;
}

/** A tool's options with the policy's rule on where links may lead (`linkRule`), when a policy is set. */
function withLinkRule<O extends object>(settings: SourceSettings, tool: string, options: O): O {
  return settings.linkRule ? { ...options, linkRule: settings.linkRule(tool) } : options;
}

/** A code tool's options with the toolkit's language-server lookup, unless the caller passed its own client. */
type WithLsp<O extends { lsp?: LspClient }> = O & { readonly lspFor?: (root: string) => LspClient | undefined };

function withLsp<O extends { lsp?: LspClient }>(settings: SourceSettings, options: O): WithLsp<O> {
  return settings.lspFor && !options.lsp ? { ...options, lspFor: settings.lspFor } : options;
}

/** The options a code tool is built with for one root: the root's language-server client resolved. */
function forRoot<O extends { lsp?: LspClient }>(root: string, { lspFor, ...own }: WithLsp<O>) {
  const lsp = own.lsp ?? lspFor?.(root);
  return { ...own, workspaceRoot: root, ...(lsp ? { lsp } : {}) };
}

/** Declares a source with its own types (the list below holds sources of different options and results). */
const source = <Options extends object, Request, Response>(
  spec: ToolSource<Options, Request, Response>,
): ToolSource<Options, Request, Response> => Object.freeze(spec);

/**
 * Every tool behind the toolkit, by model-facing name: the standalone tools (ADR Delta 3: composition, not
 * re-implementation), the context tool, and the toolkit's own sandbox and subagent.
 */
export const STANDARD_SOURCES: readonly AnyToolSource[] = Object.freeze([
  source({
    name: 'reader',
    scope: 'workspace',
    evidence: readerEvidence,
    gatesLinks: true,
    options: (s) => withLinkRule(s, 'reader', withHidden(s, 'reader', withPolicy(s, s.toolOptions.reader))),
    make: (root, _c, o: OptionsOf<typeof createReaderTool>) => createReaderTool({ ...o, workspaceRoot: root }),
  }),
  source({
    name: 'editor',
    scope: 'workspace',
    evidence: editorEvidence,
    gatesLinks: true,
    options: (s) => withLinkRule(s, 'editor', withPolicy(s, s.toolOptions.editor)),
    make: (root, _c, o: OptionsOf<typeof createEditorTool>) => createEditorTool(editorOptions(root, o)),
  }),
  source({
    name: 'bash',
    scope: 'workspace',
    evidence: NO_EVIDENCE,
    permissionSubject: STANDARD_PERMISSION_SUBJECTS.bash,
    gatesLinks: true,
    options: (s) => withLinkRule(s, 'bash', commandOptions(s)),
    // Commands run confined only when the OS sandbox is actually in effect; a plain command could read any file.
    sandboxed: (o) => commandsSandboxed(o.sandbox),
    guard: protectedCommandHook,
    make: (root, _c, o: OptionsOf<typeof createBashTool>) =>
      createBashTool({ ...o, workspaceRoot: root, jobs: jobStore(o) }),
  }),
  // jobs, context and sandbox have no gate of their own: jobs and context touch no path, and the sandbox touches only
  // the workspace as a whole, which no link can lie on. Their permission check follows links itself (nothing to follow).
  source({
    name: 'jobs',
    scope: 'workspace',
    evidence: NO_EVIDENCE,
    options: commandOptions,
    make: (_root, _c, o: OptionsOf<typeof createBashTool>) => createJobsTool(jobStore(o)),
  }),
  source({
    name: 'search',
    scope: 'workspace',
    evidence: NO_EVIDENCE,
    gatesLinks: true,
    options: (s) => withLinkRule(s, 'search', withHidden(s, 'search', withPolicy(s, s.toolOptions.search))),
    make: (root, _c, o: OptionsOf<typeof createSearchTool>) => createSearchTool({ ...o, workspaceRoot: root }),
  }),
  source({
    name: 'code_check',
    scope: 'workspace',
    evidence: NO_EVIDENCE,
    gatesLinks: true,
    options: (s) =>
      withLsp(s, withLinkRule(s, 'code_check', withHidden(s, 'code_check', withPolicy(s, s.toolOptions.code_check)))),
    make: (root, _c, o: WithLsp<OptionsOf<typeof createCodeCheckTool>>) => createCodeCheckTool(forRoot(root, o)),
  }),
  source({
    name: 'code_nav',
    scope: 'workspace',
    evidence: NO_EVIDENCE,
    gatesLinks: true,
    options: (s) =>
      withLsp(s, withLinkRule(s, 'code_nav', withHidden(s, 'code_nav', withPolicy(s, s.toolOptions.code_nav)))),
    make: (root, _c, o: WithLsp<OptionsOf<typeof createCodeNavTool>>) => createCodeNavTool(forRoot(root, o)),
  }),
  source({
    name: 'ast_search',
    scope: 'workspace',
    evidence: NO_EVIDENCE,
    gatesLinks: true,
    options: (s) => withLinkRule(s, 'ast_search', withHidden(s, 'ast_search', withPolicy(s, s.toolOptions.ast_search))),
    make: (root, _c, o: OptionsOf<typeof createAstSearchTool>) => createAstSearchTool({ ...o, workspaceRoot: root }),
  }),
  source({
    name: 'context',
    scope: 'branch',
    evidence: NO_EVIDENCE,
    options: (s) => s.toolOptions.context ?? {},
    make: (_root, context, o: ContextToolOptions) => contextProvider(o).build(context)[0] as Tool,
  }),
  source({
    name: 'sandbox',
    scope: 'toolkit',
    evidence: NO_EVIDENCE,
    options: (s) => s.sandbox,
    make: (_root, _c, o: SandboxToolOptions, build) => {
      const { state, limits, hooks, allowProtected } = needBuild('sandbox', build);
      return createSandboxTool(
        state,
        {
          maxPatchChars: limits.sandboxPatchChars,
          timeoutMs: limits.gitTimeoutMs,
          maxOutputBytes: limits.gitOutputBytes,
          ...o,
          allowProtected,
        },
        hooks,
      );
    },
  }),
  source({
    name: 'subagent',
    scope: 'toolkit',
    evidence: NO_EVIDENCE,
    permissionSubject: STANDARD_PERMISSION_SUBJECTS.subagent,
    gatesLinks: true,
    options: () => ({}),
    make: (_root, _c, _o: Record<string, never>, build) => {
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
          ...(b.linkRule ? { linkRule: b.linkRule('subagent') } : {}),
        },
        b.hooks,
      );
    },
  }),
]);
