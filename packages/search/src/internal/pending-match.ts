/** One line ripgrep reported, kept raw until it is confirmed against the file the workspace gate opens. */
export interface PendingMatch {
  /** Workspace-relative posix path. */
  readonly path: string;
  readonly line: number;
  /** Byte offset of the line's start as ripgrep reported it (`--byte-offset`); lets a large file be checked in place. */
  readonly offset?: number;
  /** The line text as ripgrep printed it (possibly cut with ripgrep's own marker). */
  readonly text: string;
}

// ripgrep's own markers for a line cut by --max-columns-preview.
export const RG_CUT_MARKER = / \[\.\.\. (?:omitted end of long line|\d+ more match(?:es)?)\]$/;

/** The part of ripgrep's text a confirmation must find in the file: without the cut marker and a cut character. */
export function shownPart(text: string): string {
  return text.replace(RG_CUT_MARKER, '').replace(/\uFFFD+$/, '');
}
