import type { ChatModel, Provider, ToolHooks } from '@bough/core';
import type { AskHandler, PermissionPresetName } from '@bough/policy';
import type { LinkRule, ProtectedNamePolicy } from '@bough/workspace';
import type { CodingLimits } from './limits.js';
import type { ToolkitState } from './toolkit-state.js';

/**
 * What one toolkit build gives a `toolkit`-scoped source (sandbox, subagent): the build's own state and resolved
 * limits, the hooks for the tool, and what the subagent needs to make its child toolkit.
 */
export interface ToolkitBuild {
  readonly state: ToolkitState;
  readonly limits: CodingLimits;
  /** The composed hooks of the tool being built (permission, caller hooks, nudge note). */
  readonly hooks: ToolHooks;
  /** The most a subagent may get (the parent's preset; no policy means allow_all). */
  readonly parentPreset: PermissionPresetName;
  /** Model for subagents when the branch has none. */
  readonly model: ChatModel | undefined;
  /** Let sandbox merges go into protected branches. */
  readonly allowProtected: boolean;
  /** Where a link on a path a tool of this build resolves may lead (the policy's rules), by tool; absent without a policy. */
  readonly linkRule?: (tool: string) => LinkRule;
  /** A fresh toolkit for a subagent: its root, its preset; nothing shared with this build. */
  readonly childToolkit: (root: string, preset: PermissionPresetName) => Provider & { dispose?(): Promise<void> };
}

/**
 * What one toolkit build tells a source's `guard` (a check that runs before the permission policy for that source's
 * calls): the toolkit's protected names, how strictly to escalate, who approves, and whether the source's calls
 * will run inside the OS sandbox.
 */
export interface SourceGuardSettings {
  /** The toolkit's protected-name policy; undefined means the workspace's `DEFAULT_PROTECTED`. */
  readonly protectedNames: ProtectedNamePolicy | undefined;
  /** `deny` under the presets that ask for commands anyway (safe, read_only, deny_all), else `ask`. */
  readonly decision: 'ask' | 'deny';
  /** The toolkit's approver; without one an escalated call is refused. */
  readonly onAsk: AskHandler | undefined;
  /** True when this source's calls will run inside the OS sandbox (`ToolSource.sandboxed` of its options). */
  readonly sandboxed: boolean;
}
