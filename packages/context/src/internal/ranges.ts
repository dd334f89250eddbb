import type { BranchView, Message } from '@bough/core';

/** A half-open range [start, end) that has already been clamped to a list. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Clamps a requested range to [0, length]; `end` defaults to `fallbackEnd`. */
export function clampSpan(
  start: number | null | undefined,
  end: number | null | undefined,
  floor: number,
  fallbackEnd: (start: number) => number,
  length: number,
): Span {
  const s = Math.min(Math.max(floor, start ?? floor), length);
  const e = Math.min(Math.max(0, end ?? fallbackEnd(s)), length);
  return { start: s, end: e };
}

/**
 * The first active index that may be hidden: 1 when the active view starts with the system message (it is never
 * hidden), otherwise 0 so a branch without a system message can curate all of its messages.
 */
export function activeFloor(branch: BranchView): number {
  const first = branch.activeIds()[0];
  return first !== undefined && branch.getMessage(first)?.role === 'system' ? 1 : 0;
}

/** Text of a span for a model-facing error. */
export function spanText(span: Span): string {
  return `[${span.start}:${span.end})`;
}

/** One line of message text: newlines become spaces and long text is cut with '...'. */
export function preview(text: string, max: number): string {
  const flat = text.replace(/\r?\n|\r/g, ' ');
  if (flat.length <= max) return flat;
  let cut = max;
  // Do not leave half of a surrogate pair at the end of the cut.
  const code = flat.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${flat.slice(0, cut)}...`;
}

/** The call id of an action message's content, if it has one. */
export function callIdOf(content: unknown): string | undefined {
  const id = (content as { call_id?: unknown } | null)?.call_id;
  return typeof id === 'string' ? id : undefined;
}

/** True for the action_request of the call that is running right now (it must stay next to its coming answer). */
export function isCurrentCall(message: Message | undefined, callId: string | undefined): boolean {
  return callId !== undefined && message?.role === 'action_request' && callIdOf(message.content) === callId;
}
