import { limitText } from '@bough/core';
import { type ContextLimits, DEFAULT_CONTEXT_LIMITS } from './limits.js';

/**
 * How and when a model should curate its own context; shown in the tool description and available to agents that
 * want to put it in a system prompt.
 */
export const CONTEXT_GUIDANCE =
  'Your conversation is recorded in full and never lost; what you curate is the active view that is sent back to ' +
  'you on every turn. Check its size with action="status". When it grows large, or when old tool output is no ' +
  'longer useful, reclaim room: action="evict_action_results" hides stale tool results (the latest keep_last stay), ' +
  'action="evict" hides a range you no longer need, and action="compact" with a summary you write replaces a long ' +
  'exploratory span with a few lines. A good summary names the root cause found, the fix applied (file and lines), ' +
  'what was verified, and which files must be read again before editing. To look back, use action="get_messages" ' +
  'with scope="all" to see hidden messages and action="restore" to bring any of them back.';

/** The model-facing description of the `context` tool, stating the limits it was built with. */
export function contextDescription(limits: ContextLimits = DEFAULT_CONTEXT_LIMITS): string {
  return (
    'Inspect and curate your own context window: status | get_messages | evict | evict_action_results | restore | ' +
    'compact. ' +
    CONTEXT_GUIDANCE +
    limitText(
      ' Ranges are [start:end) and are clamped; the system message at index 0 is never hidden. get_messages lists at ' +
        'most {maxListedMessages} messages per call (page with start); evict_action_results keeps the latest ' +
        '{defaultKeepLast} results unless keep_last says otherwise; a summary may have at most {maxSummaryChars} ' +
        'characters. If an action fails, the error says why: re-check indices with get_messages, or pass a summary ' +
        'when auto summarising is unavailable.',
      limits,
    )
  );
}

/** The model-facing description of the `context` tool with the default limits. */
export const CONTEXT_DESCRIPTION = contextDescription();
