import { isRecord, plural, type ToolSummaryParts } from '@bough/core';

// How the context tool summarises its answers for people (see core's ToolRendering); models read the generic text.

/** The active view's size after `status`, or what an eviction or restore moved. */
export function contextSummary(output: unknown): ToolSummaryParts | undefined {
  if (!isRecord(output)) return undefined;
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
