// The shape of a permission policy and the four presets; evaluating one is in permissions.ts.

/** What a permission rule decides for a call. */
export type PermissionDecision = 'allow' | 'deny' | 'ask';

/**
 * Glob patterns by tool name ('*' = every tool), matched against every path the call touches (or, for bash and
 * subagent, its command or instruction; see README).
 */
export type PermissionRules = Readonly<Record<string, readonly string[]>>;

/** A permission policy: rules are consulted deny → allow → ask; a call no rule matches is denied. */
export interface PermissionPolicy {
  readonly name?: string;
  readonly deny?: PermissionRules;
  readonly allow?: PermissionRules;
  readonly ask?: PermissionRules;
  /**
   * Tools ('*' = every tool) whose calls are allowed without asking when they will run inside the OS sandbox; deny
   * rules still decide first, and a script the deny rules could not see into still asks.
   */
  readonly allowSandboxed?: readonly string[];
}

/** Names of the built-in presets. */
export type PermissionPresetName = 'allow_all' | 'deny_all' | 'read_only' | 'safe';

const READ_TOOLS = ['reader', 'search', 'context', 'code_check', 'code_nav', 'ast_search'] as const;
const all = (names: readonly string[]): PermissionRules => Object.fromEntries(names.map((name) => [name, ['*']]));

/** The four closed presets a caller or a subagent request can name. */
export const PERMISSION_PRESETS: Readonly<Record<PermissionPresetName, PermissionPolicy>> = Object.freeze({
  allow_all: Object.freeze({ name: 'allow_all', allow: { '*': ['*'] } }),
  deny_all: Object.freeze({ name: 'deny_all', deny: { '*': ['*'] } }),
  read_only: Object.freeze({ name: 'read_only', allow: all(READ_TOOLS), deny: { editor: ['*'], bash: ['*'] } }),
  // safe: reads, searches, navigation and diagnostics run freely; every change (editor writes, edits and patches)
  // and every command asks, except a command that will run inside the OS sandbox (bubblewrap actually in effect);
  // plainly destructive commands are refused outright. jobs only sees and stops jobs this branch started.
  safe: Object.freeze({
    name: 'safe',
    allow: all([...READ_TOOLS, 'jobs']),
    allowSandboxed: Object.freeze(['bash']),
    deny: { bash: ['rm *', 'rm', 'sudo *', 'chmod *', 'kill *', 'mkfs *', 'mkfs.*', 'dd *', 'git push*'] },
    ask: { editor: ['*'], bash: ['*'] },
  }),
});

/** How permissive each preset is, lowest first; a subagent may not be given more than its parent has. */
export const PRESET_RANK: Readonly<Record<PermissionPresetName, number>> = {
  deny_all: 0,
  read_only: 1,
  safe: 2,
  allow_all: 3,
};

/** True for a preset name. */
export function isPresetName(value: unknown): value is PermissionPresetName {
  return typeof value === 'string' && Object.hasOwn(PERMISSION_PRESETS, value);
}
