import { activeTokenCount, countTokens } from '@bough/context';
import { type BranchView, isActionResponse } from '@bough/core';
import { CODING_LIMITS, type CodingLimits } from './limits.js';
import { defaultNudgeRules } from './nudge-rules.js';
import type { NudgeBudget, NudgeCall, NudgeContext, NudgeRule } from './nudge-types.js';

/**
 * Constructor options of {@link NudgeEngine}; every threshold given here is the one used. Each is checked by the
 * rule of its coding limit (`threshold` is `nudgeThreshold`, `maxTokens` is `nudgeMaxTokens`, …): a bad value throws
 * a `ConfigurationError` naming the limit.
 */
export interface NudgeEngineOptions {
  /** Rules to use; defaults to {@link defaultNudgeRules}. */
  readonly rules?: readonly NudgeRule[];
  readonly threshold?: number;
  readonly criticalThreshold?: number;
  readonly guidanceThreshold?: number;
  readonly contextWindow?: number;
  /** Token cap on one combined note. */
  readonly maxTokens?: number;
  readonly ringSize?: number;
  /** Told about a rule whose condition or message threw; the rule is skipped. */
  readonly onRuleError?: (ruleId: string, error: unknown) => void;
}

/** The engine's thresholds as the coding limits name them (the toolkit builds its engine from its own limits). */
export function nudgeSettings(L: CodingLimits): Required<Omit<NudgeEngineOptions, 'rules' | 'onRuleError'>> {
  return {
    threshold: L.nudgeThreshold,
    criticalThreshold: L.nudgeCriticalThreshold,
    guidanceThreshold: L.nudgeGuidanceThreshold,
    contextWindow: L.contextWindow,
    maxTokens: L.nudgeMaxTokens,
    ringSize: L.nudgeRingSize,
  };
}

/** Decides which short notes to attach to tool results so the model can manage its own context. */
export class NudgeEngine {
  readonly #branch: BranchView;
  readonly #rules: readonly NudgeRule[];
  readonly #options: Required<Omit<NudgeEngineOptions, 'rules' | 'onRuleError'>>;
  readonly #onRuleError: ((ruleId: string, error: unknown) => void) | undefined;
  readonly #ring: NudgeCall[] = [];
  readonly #lastFired = new Map<string, number>();
  #callCount = 0;

  constructor(branch: BranchView, options: NudgeEngineOptions = {}) {
    const L = CODING_LIMITS.resolve({
      nudgeThreshold: options.threshold,
      nudgeCriticalThreshold: options.criticalThreshold,
      nudgeGuidanceThreshold: options.guidanceThreshold,
      contextWindow: options.contextWindow,
      nudgeMaxTokens: options.maxTokens,
      nudgeRingSize: options.ringSize,
    });
    this.#branch = branch;
    this.#rules = Object.freeze([...(options.rules ?? defaultNudgeRules())]);
    this.#options = nudgeSettings(L);
    this.#onRuleError = options.onRuleError;
  }

  /** The thresholds and limits in force (as given to the constructor, or the defaults). */
  get settings(): Readonly<Required<Omit<NudgeEngineOptions, 'rules' | 'onRuleError'>>> {
    return this.#options;
  }

  /** Remembers one finished call (for streak rules). */
  recordCall(tool: string, action: string, ok: boolean): void {
    this.#ring.push({ tool, action, ok });
    while (this.#ring.length > this.#options.ringSize) this.#ring.shift();
  }

  /** Context usage of the branch's active view against the configured window. */
  budget(): NudgeBudget {
    const used = activeTokenCount(this.#branch);
    const limit = this.#options.contextWindow;
    const pct = limit > 0 ? used / limit : 1;
    return {
      used,
      limit,
      pct,
      warning: pct >= this.#options.threshold,
      critical: pct >= this.#options.criticalThreshold,
    };
  }

  /** Counts one evaluation and returns the note to attach, or undefined when no rule fires. */
  evaluate(options: { filesTracked?: number } = {}): string | undefined {
    this.#callCount += 1;
    const context = this.#context(options.filesTracked ?? 0);
    const candidates: { rule: NudgeRule; text: string }[] = [];
    const ordered = this.#rules
      .map((rule, index) => ({ rule, index }))
      .sort((a, b) => (b.rule.priority ?? 0) - (a.rule.priority ?? 0) || a.index - b.index);
    for (const { rule } of ordered) {
      if (!this.#eligible(rule)) continue;
      try {
        if (!rule.condition(context)) continue;
        const text = typeof rule.message === 'function' ? rule.message(context) : rule.message;
        if (typeof text === 'string' && text.trim() !== '') candidates.push({ rule, text: text.trim() });
      } catch (error) {
        this.#onRuleError?.(rule.id, error);
      }
    }
    const kept: string[] = [];
    let used = 0;
    for (const [index, { rule, text }] of candidates.entries()) {
      const cost = countTokens(text);
      if (index > 0 && used + cost > this.#options.maxTokens) continue;
      used += cost;
      kept.push(text);
      this.#lastFired.set(rule.id, this.#callCount);
    }
    return kept.length > 0 ? kept.join(' ') : undefined;
  }

  #eligible(rule: NudgeRule): boolean {
    const last = this.#lastFired.get(rule.id);
    const policy = rule.policy ?? 'always';
    if (policy === 'once') return last === undefined;
    if (typeof policy === 'object') return last === undefined || this.#callCount - last >= policy.cooldown;
    return true;
  }

  #context(nFiles: number): NudgeContext {
    const branch = this.#branch;
    const active = branch.activeMessages();
    const ring = [...this.#ring];
    return {
      budget: this.budget(),
      thresholds: {
        warning: this.#options.threshold,
        critical: this.#options.criticalThreshold,
        guidance: this.#options.guidanceThreshold,
      },
      nActive: active.length,
      nTotal: branch.messages.length,
      nEvicted: branch.messages.length - active.length,
      nActionResults: active.filter((message) => isActionResponse(message)).length,
      nFiles,
      recentCalls: ring,
      fired: new Set(this.#lastFired.keys()),
      callCount: this.#callCount,
      recent: (tool, limit) => {
        const calls = ring.filter((call) => call.tool === tool);
        return limit === undefined ? calls : calls.slice(-limit);
      },
    };
  }
}
