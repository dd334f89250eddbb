/** Line-ending style of a piece of text. */
export type LineEnding = 'lf' | 'crlf';

/** Text with every CRLF turned into LF, plus where the removed CRs were, so offsets can be mapped back. */
export interface NormalizedText {
  readonly text: string;
  /** Ascending offsets (in the normalized text) of each LF that was preceded by a CR in the original. */
  readonly crlfAt: Uint32Array;
}

/** Replaces CRLF with LF, remembering each position so a match in the result can be mapped to original offsets. */
export function normalizeLineEndings(original: string): NormalizedText {
  let count = 0;
  for (let i = original.indexOf('\r\n'); i >= 0; i = original.indexOf('\r\n', i + 2)) count++;
  if (count === 0) return { text: original, crlfAt: new Uint32Array(0) };
  const crlfAt = new Uint32Array(count);
  let k = 0;
  for (let i = original.indexOf('\r\n'); i >= 0; i = original.indexOf('\r\n', i + 2)) {
    crlfAt[k] = i - k; // the LF's position once the k earlier CRs are gone
    k++;
  }
  return { text: original.replaceAll('\r\n', '\n'), crlfAt };
}

/** Maps an offset in the normalized text to the original: each removed CR before it shifts it by one. */
export function toOriginalOffset(normalized: NormalizedText, offset: number): number {
  let lo = 0;
  let hi = normalized.crlfAt.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (normalized.crlfAt[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return offset + lo;
}

/** The line ending most used in a file (LF when it has none). */
export function dominantLineEnding(original: string, normalized: NormalizedText): LineEnding {
  let lf = 0;
  for (let i = original.indexOf('\n'); i >= 0; i = original.indexOf('\n', i + 1)) lf++;
  const crlf = normalized.crlfAt.length;
  return crlf > lf - crlf ? 'crlf' : 'lf';
}

/** Describes the file's line endings for a response: one style, or 'mixed'. */
export function describeLineEndings(original: string, normalized: NormalizedText): 'lf' | 'crlf' | 'mixed' | 'none' {
  let lf = 0;
  for (let i = original.indexOf('\n'); i >= 0; i = original.indexOf('\n', i + 1)) lf++;
  const crlf = normalized.crlfAt.length;
  if (lf === 0) return 'none';
  if (crlf === 0) return 'lf';
  return crlf === lf ? 'crlf' : 'mixed';
}

/**
 * Rewrites the LFs of a (normalized) replacement using the endings of the original span it replaces: the i-th line
 * break gets the i-th ending of the span, extra breaks reuse the span's last one; a span without breaks takes the
 * ending of the line it sits on. So an edit inside a CRLF region of a mixed file stays CRLF, and vice versa.
 */
export function applySurroundingEndings(
  replacement: string,
  original: string,
  spanStart: number,
  spanEnd: number,
  fallback: LineEnding,
): string {
  if (!replacement.includes('\n')) return replacement;
  const endings: LineEnding[] = [];
  for (let i = original.indexOf('\n', spanStart); i >= 0 && i < spanEnd; i = original.indexOf('\n', i + 1)) {
    endings.push(i > 0 && original[i - 1] === '\r' ? 'crlf' : 'lf');
  }
  if (endings.length === 0) endings.push(lineEndingNear(original, spanStart, spanEnd) ?? fallback);
  let n = 0;
  return replacement.replace(/\n/g, () => {
    const ending = endings[Math.min(n++, endings.length - 1)];
    return ending === 'crlf' ? '\r\n' : '\n';
  });
}

function lineEndingNear(original: string, start: number, end: number): LineEnding | undefined {
  const next = original.indexOf('\n', end);
  if (next >= 0) return next > 0 && original[next - 1] === '\r' ? 'crlf' : 'lf';
  const previous = start > 0 ? original.lastIndexOf('\n', start - 1) : -1;
  if (previous >= 0) return previous > 0 && original[previous - 1] === '\r' ? 'crlf' : 'lf';
  return undefined;
}
