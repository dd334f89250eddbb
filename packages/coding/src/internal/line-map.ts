import { changedLines } from '@bough/editor';

/** Where a line of one side of a change is on the other: a line number, or the changed region (hunk) it is part of. */
export type MappedLine = { readonly line: number } | { readonly hunk: number };

/**
 * Maps 0-based lines across a change, from the editor's line diff of the two texts: `forward` takes a line before the
 * change to its line after it (moved by the lines added or removed above it), or to the hunk that replaced it;
 * `region` says which hunk a line after the change is part of (undefined for a kept line).
 */
export function lineMapper(
  before: string,
  after: string,
): { forward(line: number): MappedLine; region(line: number): number | undefined } {
  const hunks = changedLines(before, after);
  return {
    forward(line) {
      let shift = 0;
      for (const [index, hunk] of hunks.entries()) {
        // An insertion (no old lines) goes before line oldStart, so that line already moves.
        if (line < hunk.oldStart) break;
        if (line < hunk.oldStart + hunk.oldLines) return { hunk: index };
        shift += hunk.newLines - hunk.oldLines;
      }
      return { line: line + shift };
    },
    region(line) {
      const index = hunks.findIndex((h) => line >= h.newStart && line < h.newStart + h.newLines);
      return index < 0 ? undefined : index;
    },
  };
}
