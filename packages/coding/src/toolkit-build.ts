import type { ChatModel, Provider, ToolHooks } from '@bough/core';
import type { CodingLimits } from './limits.js';
import type { PermissionPresetName } from './permissions.js';
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
  /** A fresh toolkit for a subagent: its root, its preset; nothing shared with this build. */
  readonly childToolkit: (root: string, preset: PermissionPresetName) => Provider & { dispose?(): Promise<void> };
}
