import type { BranchView, ChatModel } from '@bough/core';
import { type ContextFailure, fail } from '../errors.js';
import type { ContextLimits } from '../limits.js';
import { COMPACTION_PREFIX } from '../prompts.js';
import type { CompactResult, ContextRequest } from '../schema.js';
import { messageTokens } from '../tokens.js';
import { autoSummary } from './auto-summary.js';
import { activeFloor, clampSpan, isCurrentCall, spanText } from './ranges.js';

const isToolIo = (role: string) => role === 'action_request' || role === 'action_response';

/**
 * Replaces a span of the active view with one summary message. The summary is appended to the full record and
 * placed in the active view where the first collapsed message was; the collapsed messages stay in the record.
 */
export async function compact(
  branch: BranchView,
  request: Pick<ContextRequest, 'start' | 'end' | 'mode' | 'summary' | 'auto'>,
  options: {
    limits: ContextLimits;
    model?: ChatModel | undefined;
    signal?: AbortSignal | undefined;
    callId?: string | undefined;
  },
): Promise<CompactResult | ContextFailure> {
  const active = branch.activeMessages();
  const span = clampSpan(request.start, request.end, activeFloor(branch), () => active.length, active.length);
  if (span.start >= span.end) {
    return fail(
      'invalid_range',
      `Invalid range ${spanText(span)} for compact (the active view holds ${active.length} messages). ` +
        'Check the indices with action="get_messages".',
    );
  }
  const inSpan = active.slice(span.start, span.end);
  const collapsed = inSpan.filter(
    (message) => (request.mode === 'all' || isToolIo(message.role)) && !isCurrentCall(message, options.callId),
  );
  if (collapsed.length === 0) {
    return fail(
      'nothing_to_compact',
      `There are no tool calls or results in ${spanText(span)}. Use mode="all" to collapse the reasoning as well.`,
    );
  }
  let summary = request.summary?.trim() ?? '';
  if (summary === '') {
    if (!request.auto) {
      return fail(
        'summary_required',
        'compact needs a non-empty summary of the span (or auto=true to ask the branch model for one).',
      );
    }
    const written = await autoSummary(options.model, collapsed, options.limits.autoSourceChars, options.signal);
    if (typeof written !== 'string') return written;
    summary = written;
  }
  if (summary.length > options.limits.maxSummaryChars) {
    return fail(
      'summary_too_long',
      `The summary has ${summary.length} characters; the limit is ${options.limits.maxSummaryChars}. ` +
        'A compaction summary should be a few sentences: shorten it and call compact again.',
    );
  }
  // The auto summary awaited a model: other calls may have changed the active view meanwhile. Work from the view
  // as it is now, collapsing only what is still active, so nothing evicted is revived and nothing new is lost.
  const current = [...branch.activeIds()];
  const kept = collapsed.filter((message) => branch.isActive(message.id));
  if (kept.length === 0) {
    return fail(
      'nothing_to_compact',
      'The messages of that span left the active view while the summary was being written; nothing changed.',
    );
  }
  const collapsedIds = kept.map((message) => message.id);
  const note = branch.addMessage({
    role: 'assistant',
    content: `${COMPACTION_PREFIX} ${summary}`,
    metadata: { context_compaction: { replaced: collapsedIds, mode: request.mode } },
  });
  const gone = new Set(collapsedIds);
  const next: string[] = [];
  for (const id of current) {
    if (id === collapsedIds[0]) next.push(note.id);
    if (!gone.has(id)) next.push(id);
  }
  branch.setActiveIds(next);
  const freed = kept.reduce((sum, message) => sum + messageTokens(message), 0) - messageTokens(note);
  return {
    success: true,
    action: 'compact',
    compacted: kept.length,
    summary_id: note.id,
    tokens_freed_est: freed,
    removed_ids: collapsedIds,
    added_ids: [note.id],
    active: branch.activeIds().length,
    total: branch.messages.length,
  };
}
