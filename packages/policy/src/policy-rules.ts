import { anyGlob, globMatch } from './internal/glob-match.js';

/** The rule lists of a policy (a `PermissionPolicy` fits). */
export interface RuleLists {
  readonly deny?: Readonly<Record<string, readonly string[]>>;
  readonly allow?: Readonly<Record<string, readonly string[]>>;
  readonly ask?: Readonly<Record<string, readonly string[]>>;
}

/** The patterns of one decision for one tool (its own, then `'*'`'s), matched in one test. */
export interface RuleSet {
  readonly patterns: readonly string[];
  /** The first pattern matching one of `subjects`, or undefined. */
  find(subjects: readonly string[]): string | undefined;
  /** The first pattern matching `subject`, or undefined ({@link find} of one subject, without a list). */
  findOne(subject: string): string | undefined;
}

/** What a policy says about one tool, compiled once. */
export interface ToolRules {
  readonly deny: RuleSet;
  readonly allow: RuleSet;
  readonly ask: RuleSet;
  /** Some rule is not a catch-all (`*`, `**`): which path a call touches can change the answer. */
  readonly namesPaths: boolean;
}

/** `*`, `**`, …: a pattern that matches every subject, so which path a call touches cannot change its answer. */
export const isCatchAll = (pattern: string): boolean => /^\*+$/.test(pattern);

const compiled = new WeakMap<RuleLists, Map<string, ToolRules>>();

/**
 * The rules of `tool` in `policy`, compiled on first use and kept while the policy object lives (a policy is read
 * once per tool: build a new one rather than changing one in place).
 */
export function toolRules(policy: RuleLists, tool: string): ToolRules {
  let byTool = compiled.get(policy);
  if (!byTool) {
    byTool = new Map();
    compiled.set(policy, byTool);
  }
  let rules = byTool.get(tool);
  if (!rules) {
    const set = (lists: RuleLists['deny']) => ruleSet([...(lists?.[tool] ?? []), ...(lists?.['*'] ?? [])]);
    const deny = set(policy.deny);
    const allow = set(policy.allow);
    const ask = set(policy.ask);
    const all = [...deny.patterns, ...allow.patterns, ...ask.patterns];
    rules = Object.freeze({ deny, allow, ask, namesPaths: !all.every(isCatchAll) });
    byTool.set(tool, rules);
  }
  return rules;
}

function ruleSet(patterns: readonly string[]): RuleSet {
  const any = anyGlob(patterns);
  // A leading catch-all (`*`, the usual allow rule) is the first match of every subject: no expression to run.
  const first = patterns[0];
  const leadingCatchAll = first !== undefined && isCatchAll(first) ? first : undefined;
  const findOne = (subject: string): string | undefined => {
    if (leadingCatchAll !== undefined) return leadingCatchAll;
    // `.` is the workspace root (a whole-tree call, a listing of the root), not a name: only a catch-all names it.
    // Otherwise `.*`, written to hide dotfiles, would refuse every whole-tree call, while the files it means are
    // still hidden one by one wherever the tree is walked.
    if (subject === '.' || subject === './') return patterns.find(isCatchAll);
    if (patterns.length === 0 || !any.test(subject)) return undefined;
    return patterns.find((pattern) => globMatch(pattern, subject));
  };
  return Object.freeze({
    patterns: Object.freeze(patterns),
    findOne,
    find(subjects: readonly string[]): string | undefined {
      for (const subject of subjects) {
        const found = findOne(subject);
        if (found !== undefined) return found;
      }
      return undefined;
    },
  });
}
