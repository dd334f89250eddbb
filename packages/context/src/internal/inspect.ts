import { type BranchView, type MessageRole, messageText } from '@bough/core';
import type { ContextLimits } from '../limits.js';
import type { MessagesResult, StatusResult } from '../schema.js';
import { activeTokenCount } from '../tokens.js';
import { clampSpan, preview } from './ranges.js';

const ROLES: readonly MessageRole[] = ['system', 'user', 'assistant', 'action_request', 'action_response'];

/** Sizes of the active view and the record; token counts are cached per message, so this stays cheap. */
export function status(branch: BranchView): StatusResult {
  const byRole: Record<string, number> = Object.fromEntries(ROLES.map((role) => [role, 0]));
  for (const message of branch.activeMessages()) byRole[message.role] = (byRole[message.role] ?? 0) + 1;
  const active = branch.activeIds().length;
  const total = branch.messages.length;
  return {
    success: true,
    action: 'status',
    active_messages: active,
    total_messages: total,
    evicted: total - active,
    by_role: byRole,
    active_tokens: activeTokenCount(branch),
  };
}

/** Lists previews of the active view or of the full record, one line per message, paged by `maxListedMessages`. */
export function getMessages(
  branch: BranchView,
  request: { start?: number | null; end?: number | null; scope: 'active' | 'all' },
  limits: ContextLimits,
): MessagesResult {
  const all = request.scope === 'all';
  const list = all ? branch.messages : branch.activeMessages();
  const span = clampSpan(request.start, request.end, 0, () => list.length, list.length);
  const stop = Math.min(span.end, span.start + Math.max(0, limits.maxListedMessages));
  const lines: string[] = [];
  for (let i = span.start; i < stop; i += 1) {
    const message = list[i];
    if (!message) continue;
    const tag = all ? (branch.isActive(message.id) ? ' [active]' : ' [evicted]') : '';
    lines.push(`[${i}]${tag} ${message.role}: ${preview(messageText(message), limits.previewChars)}`);
  }
  const shownEnd = Math.max(span.start, stop);
  return {
    success: true,
    action: 'get_messages',
    scope: request.scope,
    range: `[${span.start}:${shownEnd}] of ${list.length}`,
    messages: lines,
    ...(shownEnd < span.end ? { next_start: shownEnd } : {}),
  };
}
