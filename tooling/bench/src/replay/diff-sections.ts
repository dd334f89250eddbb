/** One line of a hunk body: its mark and its text (a CR before the line break stays in the text). */
export interface BodyLine {
  readonly mark: ' ' | '-' | '+';
  readonly text: string;
}

/** One hunk of a git unified diff. */
export interface DiffHunk {
  readonly oldStart: number;
  readonly oldCount: number;
  /** The function line git prints after the second `@@` (trailing whitespace trimmed, at most 80 bytes), or ''. */
  readonly funcname: string;
  readonly body: readonly BodyLine[];
}

/** The part of a git diff about one file: from its `diff --git` line up to the next. */
export interface DiffSection {
  readonly binary: boolean;
  readonly hunks: readonly DiffHunk[];
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/u;

/**
 * Cuts the output of `git diff` into its per-file sections, in order, and reads their hunks by the counts of their
 * headers (so a body line that starts like a header cannot end a hunk). Only what the apply_patch rendering needs is
 * kept; the editor parses the original text itself.
 */
export function diffSections(diff: string): DiffSection[] {
  const lines = diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const sections: { binary: boolean; hunks: DiffHunk[] }[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith('diff --git ')) {
      sections.push({ binary: false, hunks: [] });
      i++;
      continue;
    }
    const section = sections[sections.length - 1];
    if (!section) throw new Error(`the diff does not start with 'diff --git': ${line.slice(0, 80)}`);
    if (line.startsWith('Binary files ') || line === 'GIT binary patch') section.binary = true;
    const m = HEADER.exec(line);
    if (!m || section.binary) {
      i++;
      continue;
    }
    let oldLeft = m[2] === undefined ? 1 : Number(m[2]);
    let newLeft = m[4] === undefined ? 1 : Number(m[4]);
    const body: BodyLine[] = [];
    const hunk: DiffHunk = { oldStart: Number(m[1]), oldCount: oldLeft, funcname: m[5] ?? '', body };
    i++;
    while (i < lines.length && (oldLeft > 0 || newLeft > 0 || lines[i]!.startsWith('\\'))) {
      const text = lines[i]!;
      i++;
      if (text.startsWith('\\')) continue;
      const mark = text[0] as BodyLine['mark'];
      if (mark !== '-') newLeft--;
      if (mark !== '+') oldLeft--;
      body.push({ mark, text: text.slice(1) });
    }
    section.hunks.push(hunk);
  }
  return sections;
}
