import type { BranchView } from '@bough/core';
import { type ContextFailure, fail } from '../errors.js';
import type { EvictResult, RestoreResult } from '../schema.js';
import { activeFloor, callIdOf, clampSpan, isCurrentCall, spanText } from './ranges.js';

function invalidRange(
  what: string,
  span: { start: number; end: number },
  length: number,
  systemKept = false,
): ContextFailure {
  return fail(
    'invalid_range',
    `Invalid range ${spanText(span)} for ${what} (it holds ${length} messages after clamping). ` +
      (systemKept ? 'Index 0 is the system message, which is never hidden, so start counts from 1. ' : '') +
      'Check the indices with action="get_messages" and pass start < end.',
  );
}

/**
 * Hides messages [start, end) of the active view. The system message at index 0 is never hidden, nor is the request
 * of the call in progress (its answer is about to be appended).
 */
export function evict(
  branch: BranchView,
  start: number | null | undefined,
  end: number | null | undefined,
  callId?: string,
): EvictResult | ContextFailure {
  const active = branch.activeIds();
  const floor = activeFloor(branch);
  const span = clampSpan(start, end, floor, (s) => s + 1, active.length);
  if (span.start >= span.end) return invalidRange('the active view', span, active.length, floor === 1);
  const ids = active.slice(span.start, span.end).filter((id) => !isCurrentCall(branch.getMessage(id), callId));
  branch.evict(ids);
  return {
    success: true,
    action: 'evict',
    removed: ids.length,
    removed_ids: [...ids],
    added_ids: [],
    active: branch.activeIds().length,
    total: branch.messages.length,
  };
}

/**
 * Keeps the newest `keep` active tool results and hides the older ones together with the action_request that
 * asked for each of them (matched by call_id), so no call is left dangling without its answer.
 */
export function evictActionResults(branch: BranchView, keep: number): EvictResult {
  const active = branch.activeMessages();
  const responses = active.filter((message) => message.role === 'action_response');
  const keepCount = Math.max(0, keep);
  if (responses.length === 0 || responses.length <= keepCount) {
    return {
      success: true,
      action: 'evict_action_results',
      removed: 0,
      message: `There are ${responses.length} tool results in the active view and ${keepCount} are kept; nothing to hide.`,
      removed_ids: [],
      added_ids: [],
      active: active.length,
      total: branch.messages.length,
    };
  }
  const old = responses.slice(0, responses.length - keepCount);
  const callIds = new Set(
    old.map((message) => callIdOf(message.content)).filter((id): id is string => id !== undefined),
  );
  const drop = new Set(old.map((message) => message.id));
  for (const message of active) {
    if (message.role === 'action_request' && callIds.has(callIdOf(message.content) ?? '')) drop.add(message.id);
  }
  const removedIds = active.filter((message) => drop.has(message.id)).map((message) => message.id);
  branch.evict(removedIds);
  return {
    success: true,
    action: 'evict_action_results',
    removed: removedIds.length,
    message: `Hid ${old.length} older tool results and their requests; the newest ${keepCount} stay active.`,
    removed_ids: removedIds,
    added_ids: [],
    active: branch.activeIds().length,
    total: branch.messages.length,
  };
}

/** Brings messages [start, end) of the full record back into the active view, in chronological order. */
export function restore(
  branch: BranchView,
  start: number | null | undefined,
  end: number | null | undefined,
): RestoreResult | ContextFailure {
  if (start === undefined || start === null) {
    return fail(
      'invalid_request',
      'restore needs start (an index of the full record). Find it with action="get_messages" scope="all".',
    );
  }
  const record = branch.messages;
  // A window past the end or before the start is clamped (ADR D3); an empty clamped window restores nothing.
  const span = clampSpan(start, end, 0, (s) => s + 1, record.length);
  const wanted = record.slice(span.start, span.end).filter((message) => !branch.isActive(message.id));
  const ids = wanted.map((message) => message.id);
  branch.restore(ids);
  return {
    success: true,
    action: 'restore',
    restored: ids.length,
    removed_ids: [],
    added_ids: ids,
    active: branch.activeIds().length,
    total: record.length,
  };
}
