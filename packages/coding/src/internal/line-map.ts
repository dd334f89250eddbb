import { structuredPatch } from 'diff';

/** Where a line of one side of a change is on the other: a line number, or the changed region (hunk) it is part of. */
export type MappedLine = { readonly line: number } | { readonly hunk: number };

/**
 * Maps 0-based lines across a change, from a line diff of the two texts (the `diff` library's): `forward` takes a
 * line before the change to its line after it (moved by the lines added or removed above it), or to the hunk that
 * replaced it; `region` says which hunk a line after the change is part of (undefined for a kept line).
 */
export function lineMapper(
  before: string,
  after: string,
): { forward(line: number): MappedLine; region(line: number): number | undefined } {
  const hunks = structuredPatch('a', 'b', before, after, undefined, undefined, { context: 0 }).hunks;
  return {
    forward(line) {
      const oneBased = line + 1;
      let shift = 0;
      for (const [index, hunk] of hunks.entries()) {
        // An insertion (no old lines) goes before line oldStart, so that line already moves.
        if (oneBased < hunk.oldStart) break;
        if (oneBased < hunk.oldStart + hunk.oldLines) return { hunk: index };
        shift += hunk.newLines - hunk.oldLines;
      }
      return { line: line + shift };
    },
    region(line) {
      const oneBased = line + 1;
      const index = hunks.findIndex((h) => oneBased >= h.newStart && oneBased < h.newStart + h.newLines);
      return index < 0 ? undefined : index;
    },
  };
}
