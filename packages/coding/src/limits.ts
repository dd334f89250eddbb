/** Every limit of `@bough/coding`; each is overridable through {@link CodingToolkitOptions} or function options. */
export const DEFAULT_CODING_LIMITS = {
  /** Warning threshold (fraction of the context window) for the nudge engine; 0.7 leaves room to curate calmly. */
  nudgeThreshold: 0.7,
  /** Critical threshold: above 90 % the next few tool results may not fit, so eviction becomes urgent. */
  nudgeCriticalThreshold: 0.9,
  /** Usage at which the one-time context-curation guidance appears, a little before the warning. */
  nudgeGuidanceThreshold: 0.6,
  /** Context window assumed when neither the caller nor the model says otherwise (common 128k class of models). */
  contextWindow: 128_000,
  /** Cap on the tokens one nudge note may add to a result, so guidance never crowds out the result itself. */
  nudgeMaxTokens: 250,
  /** How many recent calls the nudge engine remembers for streak rules. */
  nudgeRingSize: 20,
  /** Consecutive failing bash calls that trigger the failure-streak nudge. */
  bashFailureStreak: 3,
  /** Calls between two failure-streak nudges. */
  bashFailureCooldown: 10,
  /** Calls between two budget warnings. */
  budgetWarningCooldown: 5,
  /** Default turn budget of a subagent: enough for a focused investigation, small enough to stay cheap. */
  subagentDefaultTurns: 20,
  /** Hard ceiling on a subagent's turns, whatever the request says. */
  subagentMaxTurns: 50,
  /** Characters of a subagent's answer returned to the parent, bounding the parent's context growth. */
  subagentAnswerChars: 5_000,
  /** Characters of sandbox diff patch returned; the full size is reported beside it. */
  sandboxPatchChars: 10_000,
  /** Bytes of output kept per git stream; a diff bigger than this is cut anyway before it reaches the model. */
  gitOutputBytes: 4_000_000,
  /** Longest subagent instruction accepted: a task description, not a document. */
  subagentInstructionChars: 20_000,
  /** Time budget for one git command run by the sandbox. */
  gitTimeoutMs: 30_000,
  /** Largest file the edit guard hashes (the editor's own edit ceiling); bigger files fail the check, never pass it. */
  guardMaxBytes: 256 * 1024 * 1024,
  /** Largest file whose text the guard compares line by line with what was read; above it only an unchanged file passes. */
  guardRangeMaxBytes: 64 * 1024 * 1024,
  /** Reads of files at least this big also record the file's stamp (device, inode, size, mtime, ctime) as evidence: the reader does not hash big files, and an edit of a file still carrying the stamp needs no hash. */
  guardStampMinBytes: 1024 * 1024,
  /** Read windows remembered per file as line evidence; the oldest are dropped first. */
  guardWindowsPerFile: 32,
  /** After its own write the toolkit remembers the whole new text of files up to this size, so later edits survive outside changes elsewhere. */
  guardOwnWriteBytes: 1024 * 1024,
  /** Time budget for the before-and-after check behind `diagnostics_introduced`; past it the result says the check ran out. */
  diagnosticsBudgetMs: 2_000,
  /** Most introduced diagnostics reported per changed file. */
  diagnosticsPerFile: 20,
  /** How deep permission checks follow nested shell scripts (`sh -c "sh -c '…'"`); deeper counts as unreadable. */
  permissionScriptDepth: 4,
  /** Most command forms permission checks derive from one bash command; more counts as unreadable. */
  permissionMaxForms: 256,
  /** Turn budget of `runAgent` when the caller gives none. */
  agentMaxTurns: 20,
} as const;

/** The shape of {@link DEFAULT_CODING_LIMITS}, with every value overridable. */
export type CodingLimits = { -readonly [K in keyof typeof DEFAULT_CODING_LIMITS]: number };
