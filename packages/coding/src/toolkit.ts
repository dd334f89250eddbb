import { JobStore } from '@bough/bash';
import {
  type BranchView,
  branchProvider,
  type ChatModel,
  ConfigurationError,
  type PostHook,
  type PreHook,
  type Provider,
  type ProviderContext,
  type Tool,
  type ToolHooks,
} from '@bough/core';
import {
  type AskHandler,
  assertPolicyEnforceable,
  isPresetName,
  linkRuleOf,
  PERMISSION_PRESETS,
  type PermissionPolicy,
  type PermissionPresetName,
  type PermissionRules,
  PRESET_RANK,
  pathDenied,
  permissionHook,
  STANDARD_PERMISSION_SUBJECTS,
} from '@bough/policy';
import type { ProtectedNamePolicy } from '@bough/workspace';
import { type CheckpointsSetting, withCheckpoints } from './checkpoint-calls.js';
import { checkpointExclusions, checkpointsPermission } from './checkpoint-policy.js';
import { commandsSandboxed } from './command-sandbox.js';
import { DiagnosticsWatcher } from './diagnostics-introduced.js';
import { type CodingHooks, composeHooks, copyHooks } from './hook-composition.js';
import { inheritedDeny, withDenyRules } from './inherited-deny.js';
import { type LanguageServerSettings, LanguageServers } from './language-servers.js';
import { CODING_LIMITS, type CodingLimits } from './limits.js';
import { NudgeEngine, nudgeSettings } from './nudge-engine.js';
import { NUDGE_FIELD, nudgePostHook } from './nudge-hook.js';
import { defaultNudgeRules } from './nudge-rules.js';
import type { NudgeRule } from './nudge-types.js';
import { type PolicySandbox, policySandbox } from './sandbox-deny.js';
import type { SandboxToolOptions } from './sandbox-tool.js';
import { type AnyToolSource, type CodingToolOptions, type SourceSettings, STANDARD_SOURCES } from './tool-sources.js';
import type { ToolkitBuild } from './toolkit-build.js';
import { ToolkitState } from './toolkit-state.js';
import { wrapSource } from './wrap-tool.js';

/** Every tool the toolkit can provide, in the order they are registered. */
export const ALL_CODING_TOOLS = Object.freeze([
  'reader',
  'editor',
  'bash',
  'search',
  'code_check',
  'code_nav',
  'ast_search',
  'context',
  'sandbox',
  'subagent',
  'jobs',
] as const);
/** A toolkit tool name. */
export type CodingToolName = (typeof ALL_CODING_TOOLS)[number];
/** The tools enabled when `tools` is omitted (sandbox, subagent and jobs are opt-in). */
export const DEFAULT_CODING_TOOLS: readonly CodingToolName[] = Object.freeze(ALL_CODING_TOOLS.slice(0, 8));
/**
 * The only fields the toolkit adds to a standalone tool's response (the parity suite ignores exactly these). Not
 * exported from the package: it is the parity suite's contract, not an API.
 */
export const TOOLKIT_EXTRA_FIELDS: readonly string[] = Object.freeze([
  NUDGE_FIELD,
  'diagnostics_introduced',
  'diagnostics_note',
]);

/** Options of {@link codingToolkit}; everything is copied at construction, so later changes do not leak in. */
export interface CodingToolkitOptions {
  /** Root of the workspace; defaults to the branch's `workspaceRoot`. */
  readonly workspaceRoot?: string;
  readonly tools?: readonly string[];
  readonly hooks?: CodingHooks;
  /** A preset name or a policy; omitted means no permission checks (everything allowed). */
  readonly permissions?: PermissionPresetName | PermissionPolicy;
  /** Answers `ask` decisions; without it they are refused. */
  readonly onAsk?: AskHandler;
  /** Attach nudge notes to results (default true). */
  readonly notify?: boolean;
  /** Extra nudge rules, added to the defaults. */
  readonly nudgeRules?: readonly NudgeRule[];
  /** Let sandbox merges go into protected branches (main, master, release*). Operator-only. */
  readonly sandboxAllowProtected?: boolean;
  /** Sandbox settings: commit identity, protected branch patterns, git timeout, patch cap. */
  readonly sandbox?: Omit<SandboxToolOptions, 'allowProtected'>;
  /** Model for subagents when the branch has none. */
  readonly model?: ChatModel;
  /** Options passed to each standalone tool factory, by tool name (limits, env, …); the root is always the toolkit's. */
  readonly toolOptions?: CodingToolOptions;
  /**
   * Overrides of {@link DEFAULT_CODING_LIMITS}, nudge thresholds included (`nudgeThreshold`, `contextWindow`, …): the
   * one place to set them. A bad override throws a `ConfigurationError` naming the key when the toolkit is made.
   */
  readonly limits?: Partial<CodingLimits>;
  /** The OS sandbox (bubblewrap) for bash commands and jobs: `off` (default), `auto` or `required`. */
  readonly commandSandbox?: 'off' | 'auto' | 'required';
  /** Let sandboxed commands use the network (default false). */
  readonly network?: boolean;
  /**
   * The protected-name policy of the whole toolkit (default the workspace's `DEFAULT_PROTECTED`), set once: every
   * tool and the read-before-edit guard refuse or skip these names, the OS sandbox hides them from commands, and a
   * command that names one while no OS sandbox is in effect is asked about (refused under `safe` and stricter).
   */
  readonly protectedNames?: ProtectedNamePolicy;
  /**
   * After each successful write, edit, multi_edit or patch of Python or TypeScript/JavaScript files, run the check on
   * the changed files and attach `diagnostics_introduced` (default true; `false` turns it off).
   */
  readonly diagnostics?: boolean;
  /** Checkpoint every mutating call (editor, bash, jobs, sandbox, subagent) and add the `checkpoints` tool (default off). */
  readonly checkpoints?: CheckpointsSetting;
  /**
   * Language servers (`@bough/lsp`) for code_check, code_nav and the introduced-diagnostics delta on files ruff and
   * TypeScript do not cover (Go, C/C++, Rust, …): one client per workspace root, each server started on the first call
   * about its language and stopped when idle or when the toolkit is disposed. A server that is not installed answers
   * `unavailable` with its install command. Default on with the default servers; `false` turns it off.
   */
  readonly languageServers?: false | LanguageServerSettings;
}

/** The toolkit provider; `dispose` ends the background jobs of the builds it made and its language servers. */
export interface CodingToolkit extends Provider {
  /**
   * Kills the background jobs of one branch built by this toolkit (or, without `branch`, of every branch and clone
   * it built, and every language server it started) and refuses new ones there; resolves when their process groups
   * are gone.
   */
  dispose(branch?: BranchView): Promise<void>;
}

/**
 * The coding toolkit as a branch provider: every build makes fresh state (file state, sandbox slot, nudge engine,
 * hook lists, background jobs), so building for a second branch or a clone shares nothing mutable with earlier builds.
 */
export function codingToolkit(
  options: CodingToolkitOptions = {},
  sources: readonly AnyToolSource[] = STANDARD_SOURCES,
): CodingToolkit {
  return toolkitWith(options, sources, undefined);
}

/** {@link codingToolkit} with deny rules added to its policy: a subagent's, its parents' rules (`inherited-deny.ts`). */
function toolkitWith(
  options: CodingToolkitOptions,
  sources: readonly AnyToolSource[],
  inherited: PermissionRules | undefined,
): CodingToolkit {
  const tools = selectTools(options.tools);
  const resolved = resolvePolicy(options.permissions);
  // The inherited rules join the policy itself, so everything the policy decides (the permission check, the gates'
  // link rule, what whole-tree searches leave out, the sandbox's mounts, checkpoints) applies them.
  const policy = resolved ? withDenyRules(resolved, inherited) : undefined;
  // The policy's path deny rules become the command sandbox's mounts; one it cannot express is refused here.
  const mode = options.commandSandbox ?? (options.toolOptions?.bash as { sandbox?: string } | undefined)?.sandbox;
  const commandPolicy = policy ? policySandbox(policy, mode, () => commandsSandboxed(mode)) : {};
  const frozen = Object.freeze({
    ...options,
    hooks: copyHooks(options.hooks),
    nudgeRules: Object.freeze([...(options.nudgeRules ?? [])]),
    toolOptions: Object.freeze({ ...(options.toolOptions ?? {}) }),
    limits: CODING_LIMITS.resolve(options.limits),
  });
  const bySource = new Map(sources.map((source) => [source.name, source]));
  const missing = tools.filter((name) => !bySource.has(name));
  if (missing.length > 0)
    throw new ConfigurationError(`No standalone source for the coding tool(s): ${missing.join(', ')}.`);
  const jobs = new BuildJobs();
  const servers =
    options.languageServers === false
      ? undefined
      : new LanguageServers(options.languageServers ?? {}, options.protectedNames);
  const provider = branchProvider(
    'coding',
    (context) => buildTools(context, frozen, tools, policy, commandPolicy, bySource, jobs, servers),
    {
      rebind: 'rebuild',
    },
  );
  const dispose = async (branch?: BranchView) => {
    await Promise.all([jobs.dispose(branch), branch ? undefined : servers?.dispose()]);
  };
  return Object.freeze({ ...provider, dispose });
}

/** The job stores of a toolkit's builds: held weakly, so a branch nobody uses any more is not kept alive. */
class BuildJobs {
  readonly #all = new Set<WeakRef<JobStore>>();
  readonly #byBranch = new WeakMap<BranchView, JobStore[]>();

  add(context: ProviderContext, store: JobStore): void {
    this.#all.add(new WeakRef(store));
    this.#byBranch.set(context.branch, [...(this.#byBranch.get(context.branch) ?? []), store]);
    context.abandoned?.addEventListener('abort', () => void store.dispose(), { once: true });
  }

  async dispose(branch?: BranchView): Promise<void> {
    if (branch) {
      await Promise.all((this.#byBranch.get(branch) ?? []).map((store) => store.dispose()));
      return;
    }
    const stores: JobStore[] = [];
    for (const ref of this.#all) {
      const store = ref.deref();
      if (store) stores.push(store);
      else this.#all.delete(ref);
    }
    await Promise.all(stores.map((store) => store.dispose()));
  }
}

type Frozen = CodingToolkitOptions & { hooks: CodingHooks; limits: CodingLimits; nudgeRules: readonly NudgeRule[] };

function buildTools(
  context: ProviderContext,
  options: Frozen,
  tools: readonly CodingToolName[],
  policy: PermissionPolicy | undefined,
  commandPolicy: PolicySandbox,
  sources: ReadonlyMap<string, AnyToolSource>,
  jobs: BuildJobs,
  servers: LanguageServers | undefined,
): Tool[] {
  const root = options.workspaceRoot ?? context.workspaceRoot;
  if (!root) throw new ConfigurationError('codingToolkit needs a workspaceRoot (in its options or on the branch).');
  const L = options.limits;
  const state = new ToolkitState(context.branch, root, L.guardWindowsPerFile, L.guardTrackedFiles);
  state.guardLimits = L;
  if (options.diagnostics !== false)
    state.diagnostics = new DiagnosticsWatcher(L, servers ? (at) => servers.clientFor(at) : undefined);
  if (options.notify !== false) {
    state.nudges = new NudgeEngine(context.branch, {
      rules: [
        ...defaultNudgeRules({
          streak: L.bashFailureStreak,
          streakCooldown: L.bashFailureCooldown,
          warningCooldown: L.budgetWarningCooldown,
        }),
        ...options.nudgeRules,
      ],
      ...nudgeSettings(L),
    });
  }
  // Where a link on a path a tool resolves may lead, judged by that tool's own gate (`gatesLinks`): the policy's rules
  // for the tool on the real path (deny rules only for a tool matched on a describer's subject: bash, subagent).
  const described = (name: string) =>
    sources.get(name)?.permissionSubject !== undefined || Object.hasOwn(STANDARD_PERMISSION_SUBJECTS, name);
  const linkRule = policy ? (tool: string) => linkRuleOf(policy, tool, described(tool)) : undefined;
  // One job store per build (per branch or clone), shared by bash (in every root it runs in) and jobs; made when a
  // source first asks for it, so a build without either has none.
  let store: JobStore | undefined;
  const settings: SourceSettings = {
    toolOptions: options.toolOptions ?? {},
    sandbox: options.sandbox ?? {},
    ...(options.commandSandbox ? { commandSandbox: options.commandSandbox } : {}),
    ...(options.network !== undefined ? { network: options.network } : {}),
    ...(commandPolicy.mounts ? { sandboxDeny: commandPolicy.mounts } : {}),
    jobs: (limits) => {
      if (!store) {
        store = new JobStore(typeof limits === 'object' && limits !== null ? limits : {});
        jobs.add(context, store);
      }
      return store;
    },
    ...(options.protectedNames ? { protectedNames: options.protectedNames } : {}),
    ...(servers ? { lspFor: (root: string) => servers.clientFor(root) } : {}),
    // A tool that shows the paths it finds leaves out those a deny rule of the policy names.
    ...(policy ? { hidden: (tool: string) => (path: string) => pathDenied(policy, tool, path) } : {}),
    // Where a link on a touched path leads is judged by the gate of a tool that takes this (`gatesLinks`).
    ...(linkRule ? { linkRule } : {}),
  };
  const trailingPost = options.notify !== false ? [nudgePostHook(state)] : [];
  // How strictly a source's guard escalates: refuse outright under the presets that ask for commands anyway.
  const decision = PRESET_RANK[parentRank(options.permissions)] <= PRESET_RANK.safe ? 'deny' : 'ask';
  // A source's guard (bash: commands naming a protected path) runs first; then the policy, matched against the
  // subject the source's own describer gives; then the caller's hooks.
  const hooksFor = (source: AnyToolSource, sandboxed: boolean): ToolHooks => {
    const guard = source.guard?.({ protectedNames: options.protectedNames, decision, onAsk: options.onAsk, sandboxed });
    const permission = policy
      ? permissionHook(
          policy,
          options.onAsk,
          L,
          () => sandboxed,
          source.permissionSubject,
          () => state.currentRoot(),
          source.gatesLinks === true,
        )
      : undefined;
    const first = guard ? chainPre(guard, permission) : permission;
    const post =
      source.name === 'bash' && commandPolicy.note ? [notePost(commandPolicy.note), ...trailingPost] : trailingPost;
    return composeHooks(source.name, options.hooks, { ...(first ? { permission: first } : {}), trailingPost: post });
  };
  const build = (hooks: ToolHooks): ToolkitBuild => ({
    state,
    limits: L,
    hooks,
    parentPreset: parentRank(options.permissions),
    model: options.model,
    allowProtected: options.sandboxAllowProtected === true,
    ...(linkRule ? { linkRule } : {}),
    childToolkit: (cwd, preset) => {
      const childTools = DEFAULT_CODING_TOOLS.filter((tool) => sources.has(tool));
      // The parent's deny rules (its own parents' among them) become the child's, relative to the child's root.
      const deny = inheritedDeny(policy, state.currentRoot(), cwd, childTools.filter(described));
      const own = options.hooks.securityPre;
      return toolkitWith(
        { ...options, workspaceRoot: cwd, tools: childTools, permissions: preset, hooks: { securityPre: own } },
        [...sources.values()],
        deny,
      );
    },
  });
  const recorded: Tool[] = [];
  for (const name of tools) {
    const source = sources.get(name);
    if (!source) throw new ConfigurationError(`The coding tool ${name} is not available in this build of the toolkit.`);
    const own: object = source.options
      ? source.options(settings)
      : ((settings.toolOptions as Record<string, object | undefined>)[name] ?? {});
    const hooks = hooksFor(source, source.sandboxed?.(own) === true);
    // The toolkit's own tools work on this build's state; the others are standalone tools wrapped for the build.
    if (source.scope === 'toolkit') recorded.push(source.make(state.workspaceRoot, context, own, build(hooks)));
    else recorded.push(wrapSource(source, state, context, { ...own }, hooks));
  }
  // The checkpoints tool is added before the policy check below, so a path rule binds it like every other tool.
  const built = withCheckpoints(recorded, options.checkpoints, context, root, options.protectedNames, () => store, {
    ...(policy ? { exclude: checkpointExclusions(policy) } : {}),
    hooks: composeHooks('checkpoints', options.hooks, {
      ...(policy ? { permission: checkpointsPermission(policy, options.onAsk, L, () => root) } : {}),
      trailingPost,
    }),
  });
  if (policy) {
    assertPolicyEnforceable(
      policy,
      built.map((tool) => ({ name: tool.name, touches: tool.touches !== undefined, described: described(tool.name) })),
    );
  }
  return built;
}

/** Adds `note` to every object result's system note (what the policy's rules do not confine). */
function notePost(note: string): PostHook {
  return ({ result }) => {
    if (typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
    const previous = (result as Record<string, unknown>)[NUDGE_FIELD];
    return { ...result, [NUDGE_FIELD]: typeof previous === 'string' && previous !== '' ? `${previous} ${note}` : note };
  };
}

/** Runs `first`, then `second` unless `first` already decided or rewrote the call. */
function chainPre(first: PreHook, second: PreHook | undefined): PreHook {
  if (!second) return first;
  return async (call) => (await first(call)) ?? second(call);
}

function selectTools(requested: readonly string[] | undefined): CodingToolName[] {
  if (requested === undefined) return [...DEFAULT_CODING_TOOLS];
  const unknown = requested.filter((name) => !(ALL_CODING_TOOLS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new ConfigurationError(
      `Unknown coding tool(s): ${unknown.join(', ')}. Valid names: ${ALL_CODING_TOOLS.join(', ')}.`,
    );
  }
  return ALL_CODING_TOOLS.filter((name) => requested.includes(name));
}

function resolvePolicy(permissions: CodingToolkitOptions['permissions']): PermissionPolicy | undefined {
  if (permissions === undefined) return undefined;
  if (typeof permissions === 'string') {
    if (!isPresetName(permissions)) {
      throw new ConfigurationError(
        `Unknown permission preset ${JSON.stringify(permissions)}. Valid: ${Object.keys(PERMISSION_PRESETS).join(', ')}.`,
      );
    }
    return PERMISSION_PRESETS[permissions];
  }
  return Object.freeze({ ...permissions });
}

/** The most a subagent may get: the parent's preset; no policy means allow_all; a custom policy means read_only. */
function parentRank(permissions: CodingToolkitOptions['permissions']): PermissionPresetName {
  if (permissions === undefined) return 'allow_all';
  return typeof permissions === 'string' ? permissions : 'read_only';
}
