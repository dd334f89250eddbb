/**
 * Permission policies, the subject strings their patterns match, presets and the hook that enforces them (from
 * `@bough/policy`, the same values).
 */
export {
  type AskHandler,
  evaluatePermission,
  genericSubject,
  isPresetName,
  linkRuleOf,
  literalSubject,
  PERMISSION_PRESETS,
  type PermissionAsk,
  type PermissionCallContext,
  type PermissionDecision,
  type PermissionLimits,
  type PermissionPolicy,
  type PermissionPresetName,
  type PermissionRules,
  type PermissionSubject,
  type PermissionSubjectDescriber,
  type PermissionVerdict,
  PRESET_RANK,
  permissionHook,
  permissionSubject,
  STANDARD_PERMISSION_SUBJECTS,
} from '@bough/policy';
/** The plain agent loop used by subagents and callers; see {@link runAgent}. */
export { type AgentResult, type RunAgentOptions, runAgent } from './agent-loop.js';
/** The toolkit's `checkpoints` option. */
export type { CheckpointsSetting } from './checkpoint-calls.js';
/** Whether commands will run inside the OS sandbox (bubblewrap works here and the mode asks for it). */
export { commandsSandboxed } from './command-sandbox.js';
export { type AnthropicBashInput, executeAnthropicBash } from './dialects/anthropic-bash.js';
/** Provider tool dialects over the registry: Anthropic's text editor and bash, OpenAI's apply_patch and shell. */
export {
  type ApplyPatchInput,
  type ApplyPatchOperation,
  type ApplyPatchOutput,
  executeApplyPatch,
} from './dialects/apply-patch.js';
export type { DialectCallOptions } from './dialects/dialect-call.js';
export type { DialectFailure } from './dialects/dialect-failure.js';
export { executeOpenAiShell, type OpenAiShellInput, type OpenAiShellOutput } from './dialects/openai-shell.js';
export { profileForModel } from './dialects/profile-for-model.js';
export {
  DIALECT_PROFILES,
  type DialectProfile,
  dialectTools,
  isDialectProfile,
  PROFILE_NEEDS,
} from './dialects/profiles.js';
export { executeTextEditor, type TextEditorInput, type TextEditorOptions } from './dialects/text-editor.js';
/** The read-before-edit guard. */
export { checkBeforeEdit, hashFile } from './edit-guard.js';
/** The evidence extractors of the reader and editor sources (for sources that wrap those tools differently). */
export { editorEvidence } from './editor-evidence.js';
/** The failure code table of the toolkit (guard, permissions, sandbox, subagent, agent loop). */
export { CODING_ERROR_CODES, type CodingErrorCode, type CodingFailure } from './errors.js';
/** Per-build file state with evidence tied to the branch's active view. */
export { FileState, type FileStateEntry } from './file-state.js';
/** Hook maps and the documented composition order. */
export { type CodingHooks, composeHooks, type HookMap, type ToolkitHookParts } from './hook-composition.js';
/** How the toolkit runs language servers for Go, C/C++, Rust and other server-backed files. */
export type { LanguageServerSettings } from './language-servers.js';
/** Every limit of the package. */
export { CODING_LIMITS, type CodingLimits, DEFAULT_CODING_LIMITS } from './limits.js';
/** The nudge engine and its rule types. */
export { NudgeEngine, type NudgeEngineOptions } from './nudge-engine.js';
/** The result field nudge notes go in, and the success test the nudge engine uses. */
export { NUDGE_FIELD, resultOk } from './nudge-hook.js';
/** The default nudge rules (the context tool's own guidance is `CONTEXT_GUIDANCE` of `@bough/context`). */
export { defaultNudgeRules } from './nudge-rules.js';
export type { NudgeBudget, NudgeCall, NudgeContext, NudgePolicy, NudgeRule } from './nudge-types.js';
export { readerEvidence } from './reader-evidence.js';
/**
 * The git-worktree functions under their old names, deprecated: the library is `@bough/worktree` (`createWorktree`,
 * `worktreeDiff`, `worktreeCommit`, `worktreeMerge`, `discardWorktree`); these keep the `sandbox-` branches and codes.
 */
export {
  createSandbox,
  discardSandbox,
  PROTECTED_BRANCHES,
  type SandboxCleanup,
  type SandboxDiff,
  type SandboxMergeResult,
  type SandboxOptions,
  type SandboxSession,
  sandboxCommit,
  sandboxDiff,
  sandboxMerge,
} from './sandbox-compat.js';
/** The `sandbox` tool's request schema and options (the tool itself is built by the toolkit). */
export { SandboxRequest, type SandboxToolOptions } from './sandbox-tool.js';
/** What a source's calls tell the read-before-edit guard: each source brings an extractor typed to its own results. */
export {
  type GuardTarget,
  NO_EVIDENCE,
  type NoEvidence,
  type ReadEvidence,
  type ReadEvidenceOf,
  type SourceEvidence,
  type WriteEffect,
  type WriteEvidenceOf,
  type WrittenLines,
} from './source-evidence.js';
/** The `subagent` tool's request schema and system prompt (the tool itself is built by the toolkit). */
export { SUBAGENT_SYSTEM_PROMPT, SubagentRequest, subagentRequest } from './subagent-tool.js';
/** The typed sources the toolkit composes: each says where its tool lives, what evidence its calls carry, and its options. */
export {
  type AnyToolSource,
  type CodingToolOptions,
  type SourceScope,
  type SourceSettings,
  STANDARD_SOURCES,
  type ToolSource,
} from './tool-sources.js';
/** The toolkit provider, its options and tool-name lists. */
export {
  ALL_CODING_TOOLS,
  type CodingToolkit,
  type CodingToolkitOptions,
  type CodingToolName,
  codingToolkit,
  DEFAULT_CODING_TOOLS,
} from './toolkit.js';
/** What a toolkit build gives the sources that work on its state (sandbox, subagent). */
export type { SourceGuardSettings, ToolkitBuild } from './toolkit-build.js';
