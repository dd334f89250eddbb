import type { CheckpointSummary } from '../types.js';

/**
 * What a checkpoint records about the call around it, kept as the commit message (JSON): the call's fields of a
 * listed checkpoint (one definition, in the public summary), plus the format's version.
 */
export interface CheckpointMeta
  extends Pick<
    CheckpointSummary,
    'kind' | 'time' | 'branch' | 'call_id' | 'tool' | 'request' | 'label' | 'restored_to'
  > {
  readonly v: 1;
}

/** Reads a commit message back; a message that is not ours (or damaged) becomes a plain snapshot. */
export function parseMeta(message: string, fallbackTime: string): CheckpointMeta {
  try {
    const value = JSON.parse(message) as Partial<CheckpointMeta>;
    if (value && value.v === 1 && typeof value.kind === 'string') return value as CheckpointMeta;
  } catch {
    // fall through
  }
  return { v: 1, kind: 'snapshot', time: fallbackTime };
}

/** The request of a call as kept text, cut to `max` characters. */
export function requestText(request: unknown, max: number): string | undefined {
  if (request === undefined) return undefined;
  let text: string;
  try {
    text = typeof request === 'string' ? request : JSON.stringify(request);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
