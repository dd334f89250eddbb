import { lineChanges, withHeader } from './line-diff.js';
import { LineCounter } from './lines.js';

/**
 * A git-style unified diff of two whole texts: `--- {old}` / `+++ {new}` header, `context` lines around each change
 * (default 3), never cut short, ending with a line break; empty when the texts are equal. Made by the project's own
 * line diff (see `line-diff.ts` for why it is not jsdiff), so the editor's `patch` action applies it as is.
 */
export function unifiedTextDiff(
  before: string,
  after: string,
  names: { old: string; new: string },
  context = 3,
): string {
  const limits = { context, maxLines: Number.POSITIVE_INFINITY, maxLineChars: Number.POSITIVE_INFINITY };
  const { diff } = withHeader(before, after, names, limits, lineChanges(before, after));
  return diff === '' ? '' : `${diff}\n`;
}

/** One changed region of a line diff: 0-based first line and line count on each side (a count of 0 is an insertion or a deletion point). */
export interface ChangedLines {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
}

/** The regions whose lines differ between two texts, in order, with no context: the project's own line diff. */
export function changedLines(before: string, after: string): ChangedLines[] {
  const oldLines = new LineCounter(before);
  const newLines = new LineCounter(after);
  // Each change spans whole lines: its offsets are line starts (or the end of the text).
  const lineOf = (counter: LineCounter, text: string, at: number) =>
    at >= text.length ? lineCount(text) : counter.lineAt(at) - 1;
  return lineChanges(before, after).changes.map((change) => {
    const oldStart = lineOf(oldLines, before, change.oldStart);
    const newStart = lineOf(newLines, after, change.newStart);
    return {
      oldStart,
      oldLines: lineOf(oldLines, before, change.oldEnd) - oldStart,
      newStart,
      newLines: lineOf(newLines, after, change.newEnd) - newStart,
    };
  });
}

/** Lines of a text, a last line without a line break included. */
function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.length > 0 && !text.endsWith('\n') ? n + 1 : n;
}
