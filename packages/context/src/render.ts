import type { ToolSummaryParts } from '@bough/core';

// How the context tool summarises its answers for people (see core's ToolRendering); models read the generic text.

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The active view's size after `status`, or what an eviction or restore moved. */
export function contextSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isObj(output)) return undefined;
  const action = output.action;
  if (action === 'status' && typeof output.active_messages === 'number') {
    return {
      headline: `${output.active_messages} of ${output.total_messages} messages active, ~${output.active_tokens} tokens, ${output.evicted} evicted`,
    };
  }
  if (
    (action === 'evict' || action === 'restore' || action === 'evict_action_results') &&
    typeof output.active === 'number'
  ) {
    const moved =
      (typeof output.removed === 'number' ? output.removed : undefined) ??
      (typeof output.restored === 'number' ? output.restored : 0);
    const verb = action === 'restore' ? 'restored' : 'evicted';
    return { headline: `${verb} ${plural(moved, 'message')}; now ${output.active} of ${output.total} active` };
  }
  return undefined;
}
