import { defineLimits, type LimitValues } from '@bough/core';
import { DEFAULT_POLICY_LIMITS } from '@bough/policy';
import { DEFAULT_WORKTREE_LIMITS } from '@bough/worktree';

/**
 * Every limit of `@bough/coding`, each with its reason; each is overridable through {@link CodingToolkitOptions}
 * `limits` (or the options of the function that uses it). A bad override throws a `ConfigurationError` naming the
 * key, when the toolkit is made.
 */
export const CODING_LIMITS = defineLimits('coding', {
  nudgeThreshold: {
    value: 0.7,
    rule: 'positive',
    reason:
      'Warning threshold (fraction of the context window) for the nudge engine; 0.7 leaves room to curate calmly.',
  },
  nudgeCriticalThreshold: {
    value: 0.9,
    rule: 'positive',
    reason: 'Critical threshold: above 90 % the next few tool results may not fit, so eviction becomes urgent.',
  },
  nudgeGuidanceThreshold: {
    value: 0.6,
    rule: 'positive',
    reason: 'Usage at which the one-time context-curation guidance appears, a little before the warning.',
  },
  contextWindow: {
    value: 128_000,
    reason:
      'Context window assumed when neither the caller nor the model says otherwise (common 128k class of models).',
  },
  nudgeMaxTokens: {
    value: 250,
    reason: 'Cap on the tokens one nudge note may add to a result, so guidance never crowds out the result itself.',
  },
  nudgeRingSize: { value: 20, reason: 'How many recent calls the nudge engine remembers for streak rules.' },
  bashFailureStreak: { value: 3, reason: 'Consecutive failing bash calls that trigger the failure-streak nudge.' },
  bashFailureCooldown: { value: 10, reason: 'Calls between two failure-streak nudges.' },
  budgetWarningCooldown: { value: 5, reason: 'Calls between two budget warnings.' },
  subagentDefaultTurns: {
    value: 20,
    reason: 'Default turn budget of a subagent: enough for a focused investigation, small enough to stay cheap.',
  },
  subagentMaxTurns: { value: 50, reason: "Hard ceiling on a subagent's turns, whatever the request says." },
  subagentAnswerChars: {
    value: 5_000,
    reason: "Characters of a subagent's answer returned to the parent, bounding the parent's context growth.",
  },
  sandboxPatchChars: {
    value: DEFAULT_WORKTREE_LIMITS.patchChars,
    reason:
      "Characters of sandbox diff patch returned (the worktree's `patchChars`); the full size is reported beside it.",
  },
  gitOutputBytes: {
    value: DEFAULT_WORKTREE_LIMITS.gitOutputBytes,
    reason: 'Bytes of output kept per git stream of the sandbox (the worktree limit of the same name).',
  },
  subagentInstructionChars: {
    value: 20_000,
    reason: 'Longest subagent instruction accepted: a task description, not a document.',
  },
  gitTimeoutMs: {
    value: DEFAULT_WORKTREE_LIMITS.gitTimeoutMs,
    rule: 'timeout',
    reason: 'Time budget for one git command run by the sandbox (the worktree limit of the same name).',
  },
  guardMaxBytes: {
    value: 256 * 1024 * 1024,
    reason:
      "Largest file the edit guard hashes (the editor's own edit ceiling); bigger files fail the check, never pass it.",
  },
  guardRangeMaxBytes: {
    value: 64 * 1024 * 1024,
    reason:
      'Largest file whose text the guard compares line by line with what was read; above it only an unchanged file passes.',
  },
  guardStampMinBytes: {
    value: 1024 * 1024,
    reason:
      "Reads of files at least this big also record the file's stamp (device, inode, size, mtime, ctime) as evidence: the reader does not hash big files, and an edit of a file still carrying the stamp needs no hash.",
  },
  guardWindowsPerFile: {
    value: 32,
    reason: 'Read windows remembered per file as line evidence; the oldest are dropped first.',
  },
  guardTrackedFiles: {
    value: 2_048,
    reason:
      'Files whose read evidence the edit guard keeps at once, so a long session (an MCP server never drops a call) stays bounded; the least recently used is forgotten and must be read again before an edit.',
  },
  guardOwnWriteBytes: {
    value: 1024 * 1024,
    reason:
      'After its own write the toolkit remembers the whole new text of files up to this size, so later edits survive outside changes elsewhere; the guard also hands files up to this size it read to the editor, which then does not read them again.',
  },
  diagnosticsBudgetMs: {
    value: 2_000,
    rule: 'timeout',
    reason:
      'Time budget for the before-and-after check behind `diagnostics_introduced`; past it the result says the check ran out.',
  },
  diagnosticsPerFile: { value: 20, reason: 'Most introduced diagnostics reported per changed file.' },
  serverDiagnosticsWaitMs: {
    value: 10_000,
    rule: 'timeout',
    reason:
      'For files a language server checks (Go, C/C++, …): how long `diagnostics_introduced` waits, before the change and again after it, for the diagnostics of exactly that version and of the other files it re-checks; past it a note says so.',
  },
  permissionScriptDepth: {
    value: DEFAULT_POLICY_LIMITS.permissionScriptDepth,
    reason:
      'How deep permission checks follow nested shell scripts (`sh -c "sh -c \'…\'"`); deeper counts as unreadable (the policy limit of the same name).',
  },
  permissionMaxForms: {
    value: DEFAULT_POLICY_LIMITS.permissionMaxForms,
    reason:
      'Most command forms permission checks derive from one bash command; more counts as unreadable (the policy limit of the same name).',
  },
  agentMaxTurns: { value: 20, reason: 'Turn budget of `runAgent` when the caller gives none.' },
});

/** The resolved limits of one toolkit. */
export type CodingLimits = LimitValues<keyof typeof CODING_LIMITS.defaults>;

/** The defaults used when a caller does not override a limit. */
export const DEFAULT_CODING_LIMITS: CodingLimits = CODING_LIMITS.defaults;
