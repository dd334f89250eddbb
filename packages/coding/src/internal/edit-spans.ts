import type { ReadWindow } from '../file-state.js';

/** An inclusive, 1-based range of lines of the current file that a change would replace. */
export interface LineSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * What a change needs as evidence: `digest` when only a whole-file digest can vouch for it (the replaced lines
 * cannot be located exactly), otherwise the spans of current lines that must be exactly as read.
 */
export type EvidenceNeed =
  | { readonly kind: 'digest' }
  | { readonly kind: 'spans'; readonly spans: readonly LineSpan[] };

const DIGEST: EvidenceNeed = Object.freeze({ kind: 'digest' });
const CUT_MARK = / … \[line cut: \d+ more characters\]$/;

/** The lines of a text without their endings (a final line ending does not start another line). */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/**
 * Turns the reader's numbered rows (`<n>\t<text>`) back into the lines they showed; a row the reader cut short
 * becomes `null`, since the model never saw that whole line. Undefined when the rows are not in that form.
 */
export function windowFromRows(content: string, startLine: number): (string | null)[] | undefined {
  if (content === '') return [];
  const rows = content.split('\n');
  const lines: (string | null)[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as string;
    const prefix = `${startLine + i}\t`;
    if (!row.startsWith(prefix)) return undefined;
    const text = row.slice(prefix.length);
    // Every cut marker ends this way; the pattern is only tried on rows that do.
    lines.push(text.endsWith(' more characters]') && CUT_MARK.test(text) ? null : text);
  }
  return lines;
}

/** 1-based line of a character offset, given the offsets where each line starts. */
function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** The line spans covered by every exact occurrence of `needle` in `text` (both with LF line endings). */
export function occurrenceSpans(text: string, needle: string): LineSpan[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const spans: LineSpan[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    const last = needle.endsWith('\n') && needle.length > 1 ? at + needle.length - 2 : at + needle.length - 1;
    spans.push({ start: lineAt(starts, at), end: lineAt(starts, Math.max(at, last)) });
  }
  return spans;
}

const lf = (value: string) => value.replace(/\r\n/g, '\n');

/**
 * Which current lines an editor request would replace. Exact occurrences are located the way the editor does
 * (CRLF files match LF text); anything that cannot be located exactly — a fuzzy match, an empty `old_string`, an
 * action this function does not know — needs a whole-file digest instead, so the guard is never weaker than
 * "unchanged since read".
 */
export function evidenceNeed(request: unknown, currentText: string): EvidenceNeed {
  if (typeof request !== 'object' || request === null) return DIGEST;
  const r = request as { action?: unknown; old_string?: unknown; edits?: unknown };
  if (r.action === 'write') {
    const count = linesOf(currentText).length;
    return { kind: 'spans', spans: count > 0 ? [{ start: 1, end: count }] : [] };
  }
  const text = lf(currentText);
  if (r.action === 'edit') {
    if (typeof r.old_string !== 'string' || r.old_string === '') return DIGEST;
    const spans = occurrenceSpans(text, lf(r.old_string));
    return spans.length > 0 ? { kind: 'spans', spans } : DIGEST;
  }
  if (r.action === 'multi_edit' && Array.isArray(r.edits)) {
    const spans: LineSpan[] = [];
    const written: string[] = [];
    for (const edit of r.edits as { old_string?: unknown; new_string?: unknown }[]) {
      if (typeof edit?.old_string !== 'string' || edit.old_string === '') return DIGEST;
      const old = lf(edit.old_string);
      const found = occurrenceSpans(text, old);
      // Text an earlier edit of this call wrote needs no evidence: the branch is writing it right now.
      if (found.length === 0 && !written.some((chunk) => chunk.includes(old))) return DIGEST;
      spans.push(...found);
      if (typeof edit.new_string === 'string') written.push(lf(edit.new_string));
    }
    return { kind: 'spans', spans };
  }
  return DIGEST;
}

/** Whether line `n` (1-based) of the file is shown, identical and at the same position, by some window. */
function seenInPlace(fileLines: readonly string[], n: number, windows: readonly ReadWindow[]): boolean {
  const current = fileLines[n - 1];
  return windows.some((w) => {
    const shown = w.lines[n - w.startLine];
    return shown !== undefined && shown !== null && shown === current;
  });
}

/** Whether the span's lines appear, identical and contiguous, inside one window (lines above may have moved). */
function seenShifted(fileLines: readonly string[], span: LineSpan, windows: readonly ReadWindow[]): boolean {
  const length = span.end - span.start + 1;
  const first = fileLines[span.start - 1];
  for (const w of windows) {
    for (let j = 0; j + length <= w.lines.length; j++) {
      if (w.lines[j] !== first) continue;
      let same = true;
      for (let k = 1; k < length && same; k++) same = w.lines[j + k] === fileLines[span.start - 1 + k];
      if (same) return true;
    }
  }
  return false;
}

/**
 * The first span whose current lines are not exactly as some read showed them, or undefined when every span is
 * covered: each line seen in place (possibly across several windows), or the whole span seen in one window at a
 * different position (a formatter or another process moved it).
 */
export function firstUnseenSpan(
  fileLines: readonly string[],
  spans: readonly LineSpan[],
  windows: readonly ReadWindow[],
): LineSpan | undefined {
  for (const span of spans) {
    let inPlace = true;
    for (let n = span.start; n <= span.end && inPlace; n++) inPlace = seenInPlace(fileLines, n, windows);
    if (!inPlace && !seenShifted(fileLines, span, windows)) return span;
  }
  return undefined;
}
