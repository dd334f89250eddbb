import { DEFAULT_CODING_LIMITS } from './limits.js';
import type { NudgeContext, NudgeRule } from './nudge-types.js';

/**
 * The one-time nudge pointing at the `context` tool when the window starts to fill: a short tip, because a nudge
 * note has a token cap; the full guidance is `CONTEXT_GUIDANCE` of `@bough/context`, in the tool's description.
 */
const CONTEXT_TIP =
  'Tip: you can manage your own context with the context tool — `status` shows usage, `evict_action_results` ' +
  'drops old tool outputs (keeping the latest few), `compact` replaces a span with your summary, and `restore` ' +
  'brings evicted messages back. Evicted file reads must be read again before editing those files.';

function tokens(count: number): string {
  return count >= 1000 ? `${Math.floor(count / 1000)}k` : String(count);
}

function status(context: NudgeContext): string {
  const { used, limit, pct } = context.budget;
  const parts = [
    `context ${tokens(used)}/${tokens(limit)} tokens (${Math.round(pct * 100)}%)`,
    `${context.nActive} messages`,
  ];
  if (context.nActionResults > 0) parts.push(`${context.nActionResults} action results`);
  if (context.nFiles > 0) parts.push(`${context.nFiles} files tracked`);
  if (context.nEvicted > 0) parts.push(`${context.nEvicted} evicted`);
  return `[${parts.join(', ')}]`;
}

/**
 * A fresh list of the default rules: context status (always), budget critical (always), guidance (once),
 * bash failure streak (cooldown), budget warning (cooldown). Thresholds come from the engine that evaluates them.
 */
export function defaultNudgeRules(
  limits: { streak?: number; streakCooldown?: number; warningCooldown?: number } = {},
): NudgeRule[] {
  const streak = limits.streak ?? DEFAULT_CODING_LIMITS.bashFailureStreak;
  return [
    { id: 'status', priority: 100, policy: 'always', condition: () => true, message: status },
    {
      id: 'budget_critical',
      priority: 90,
      policy: 'always',
      condition: (context) => context.budget.critical,
      message: 'Context is nearly full: evict old action results or compact now, before the next large result.',
    },
    {
      id: 'guidance',
      priority: 80,
      policy: 'once',
      condition: (context) => context.budget.pct >= context.thresholds.guidance,
      message: CONTEXT_TIP,
    },
    {
      id: 'bash_failure_streak',
      priority: 60,
      policy: { cooldown: limits.streakCooldown ?? DEFAULT_CODING_LIMITS.bashFailureCooldown },
      condition: (context) => {
        const last = context.recent('bash', streak);
        return last.length === streak && last.every((call) => !call.ok);
      },
      message: `${streak} bash calls in a row failed. Read the exact error and find the cause before running anything again.`,
    },
    {
      id: 'budget_warning',
      priority: 50,
      policy: { cooldown: limits.warningCooldown ?? DEFAULT_CODING_LIMITS.budgetWarningCooldown },
      condition: (context) => context.budget.warning && !context.budget.critical,
      message: 'Context is filling up; consider evicting earlier action results you no longer need.',
    },
  ];
}
