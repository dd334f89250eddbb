/** How often a rule may fire: every time, once per engine, or at most once every `cooldown` evaluations. */
export type NudgePolicy = 'always' | 'once' | { readonly cooldown: number };

/** Context-window usage as the engine sees it, with the engine's own thresholds applied. */
export interface NudgeBudget {
  readonly used: number;
  readonly limit: number;
  /** used / limit. */
  readonly pct: number;
  readonly warning: boolean;
  readonly critical: boolean;
}

/** One tool call the engine was told about. */
export interface NudgeCall {
  readonly tool: string;
  readonly action: string;
  readonly ok: boolean;
}

/** What a rule's condition and message see. */
export interface NudgeContext {
  readonly budget: NudgeBudget;
  readonly thresholds: { readonly warning: number; readonly critical: number; readonly guidance: number };
  readonly nActive: number;
  readonly nTotal: number;
  readonly nEvicted: number;
  readonly nActionResults: number;
  readonly nFiles: number;
  /** Recent calls, oldest first. */
  readonly recentCalls: readonly NudgeCall[];
  readonly fired: ReadonlySet<string>;
  readonly callCount: number;
  /** The last `limit` calls of one tool, oldest first. */
  recent(tool: string, limit?: number): NudgeCall[];
}

/** A nudge: when `condition` holds (and the policy allows), `message` is added to the tool result. */
export interface NudgeRule {
  readonly id: string;
  readonly condition: (context: NudgeContext) => boolean;
  readonly message: string | ((context: NudgeContext) => string);
  readonly policy?: NudgePolicy;
  /** Higher runs first; the first eligible rule is always kept, later ones only while under the token cap. */
  readonly priority?: number;
}
