/** What a checkpoint records about the call around it, kept as the commit message (JSON). */
export interface CheckpointMeta {
  readonly v: 1;
  /** `after`: changes made by the named call; `before`: changes found before a call (made by someone else);
   * `restore`: a restore; `snapshot`: a plain snapshot. */
  readonly kind: 'after' | 'before' | 'restore' | 'snapshot';
  readonly time: string;
  readonly branch?: string;
  readonly call_id?: string;
  readonly tool?: string;
  readonly request?: string;
  readonly label?: string;
  /** For a restore: the checkpoint it brought back. */
  readonly restored_to?: string;
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
