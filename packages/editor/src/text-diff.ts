// Editor's public line-diff API. The implementation lives in `@bough/workspace/internal` (shared with @bough/lsp and
// coding), an entry that may change in any release; these declarations are editor's own, semver-covered surface, so
// a change there fails to compile here instead of silently changing what editor exports.
import { changedLines as changedLinesOf, unifiedTextDiff as unifiedTextDiffOf } from '@bough/workspace/internal';

/** One changed region of a line diff: 0-based first line and line count on each side (a count of 0 is an insertion or a deletion point). */
export interface ChangedLines {
  /** First changed line in the old text (0-based). */
  readonly oldStart: number;
  /** Lines of the old text in the region (0 for an insertion). */
  readonly oldLines: number;
  /** First changed line in the new text (0-based). */
  readonly newStart: number;
  /** Lines of the new text in the region (0 for a deletion). */
  readonly newLines: number;
}

/**
 * A git-style unified diff of two whole texts: `--- {old}` / `+++ {new}` header, `context` lines around each change
 * (default 3), never cut short, ending with a line break; empty when the texts are equal. The editor's `patch` action
 * applies it as is.
 */
export function unifiedTextDiff(
  before: string,
  after: string,
  names: { old: string; new: string },
  context = 3,
): string {
  return unifiedTextDiffOf(before, after, names, context);
}

/** The regions whose lines differ between two texts, in order, with no context. */
export function changedLines(before: string, after: string): ChangedLines[] {
  return changedLinesOf(before, after);
}
