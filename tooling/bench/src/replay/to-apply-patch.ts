import type { DiffHunk, DiffSection } from './diff-sections.js';
import type { ChangedEntry } from './git-history.js';

/**
 * The apply_patch rendering of a commit, as Codex writes it, or why the format cannot carry the change. Written here
 * because no maintained library renders this format; the grammar is Codex's (`*** Begin Patch`, `*** Add File:`,
 * `*** Delete File:`, `*** Update File:` with an optional `*** Move to:`, `@@ [line]` hunks of ' ', '-', '+' lines,
 * an optional `*** End of File`, `*** End Patch`).
 */
export type ApplyPatchRendering =
  | {
      readonly ok: true;
      readonly text: string;
      /** Hunks whose old lines occur more than once from where the search starts: where the first is the true spot. */
      readonly ambiguousFirst: number;
      /** …and where the true spot is a later occurrence (an applier taking the first would apply it wrongly). */
      readonly ambiguousLater: number;
    }
  | {
      readonly ok: false;
      /** What the format cannot say, as a category to count by (e.g. 'mode change'). */
      readonly reason: string;
      /** The file and values concerned. */
      readonly detail: string;
    };

const no = (reason: string, detail: string): ApplyPatchRendering => ({ ok: false, reason, detail });
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a blob, or undefined when it is not UTF-8. */
export function utf8Text(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Which line breaks a text uses: 'lf', 'crlf', 'mixed', or 'none' (a single line without a break). */
export function lineBreaks(text: string): 'lf' | 'crlf' | 'mixed' | 'none' {
  const breaks = text.split('\n').length - 1;
  const crlf = text.split('\r\n').length - 1;
  if (breaks === 0) return 'none';
  if (crlf === 0) return 'lf';
  return crlf === breaks ? 'crlf' : 'mixed';
}

/** The lines of a text without their breaks (a CR before a break dropped), as the apply_patch format carries them. */
function textLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replaceAll('\r\n', '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function occurrences(lines: readonly string[], old: readonly string[], from: number): number[] {
  const found: number[] = [];
  for (let i = from; i + old.length <= lines.length; i++) {
    let j = 0;
    while (j < old.length && lines[i + j] === old[j]) j++;
    if (j === old.length) found.push(i);
  }
  return found;
}

interface Rendered {
  lines: string[];
  ambiguousFirst: number;
  ambiguousLater: number;
}

/** The hunks of one updated file in apply_patch form, with a `@@ line` where git's function line is a whole line. */
function renderHunks(oldLines: readonly string[], hunks: readonly DiffHunk[], out: Rendered): void {
  let cursor = 0;
  for (const hunk of hunks) {
    const start = hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1;
    let from = cursor;
    let header = '@@';
    if (hunk.funcname !== '') {
      const at = oldLines.indexOf(hunk.funcname, cursor);
      if (at >= 0 && at < start) {
        header = `@@ ${hunk.funcname}`;
        from = at + 1;
      }
    }
    out.lines.push(header);
    const old: string[] = [];
    for (const line of hunk.body) {
      const text = line.text.endsWith('\r') ? line.text.slice(0, -1) : line.text;
      out.lines.push(`${line.mark}${text}`);
      if (line.mark !== '+') old.push(text);
    }
    const end = start + hunk.oldCount;
    const eof = hunk.oldCount > 0 && end === oldLines.length;
    if (eof) out.lines.push('*** End of File');
    else if (old.length > 0) {
      const found = occurrences(oldLines, old, from);
      if (found.length > 1) {
        if (found[0] === start) out.ambiguousFirst++;
        else out.ambiguousLater++;
      }
    }
    cursor = end;
  }
}

/**
 * Renders a commit (its changed entries, in the order of `git diff -M`, the matching sections of that diff, and the
 * blobs of both sides) in the apply_patch format. Changes the format cannot say are reported instead: modes, new files
 * that are executable, end in CRLF or lack a final newline, and files whose line breaks or final newline change.
 */
export function toApplyPatch(
  entries: readonly ChangedEntry[],
  sections: readonly DiffSection[],
  blobs: ReadonlyMap<string, Buffer>,
): ApplyPatchRendering {
  if (sections.length !== entries.length)
    return no('diff sections do not match', `${sections.length} diff sections for ${entries.length} changed paths`);
  const out: Rendered = { lines: ['*** Begin Patch'], ambiguousFirst: 0, ambiguousLater: 0 };
  for (const [k, entry] of entries.entries()) {
    if (/[\r\n]/u.test(entry.oldPath + entry.newPath)) return no('line break in a path', entry.newPath);
    if (entry.status === 'D') {
      out.lines.push(`*** Delete File: ${entry.oldPath}`);
      continue;
    }
    const after = utf8Text(blobs.get(entry.newBlob)!);
    if (after === undefined) return no('not UTF-8', entry.newPath);
    if (entry.status === 'A') {
      if (entry.newMode !== '100644') return no('executable new file', `${entry.newPath} ${entry.newMode}`);
      if (after.includes('\r\n')) return no('new file with CRLF', entry.newPath);
      if (after !== '' && !after.endsWith('\n')) return no('new file without final newline', entry.newPath);
      out.lines.push(`*** Add File: ${entry.newPath}`, ...textLines(after).map((line) => `+${line}`));
      continue;
    }
    if (entry.oldMode !== entry.newMode)
      return no('mode change', `${entry.newPath}: ${entry.oldMode} → ${entry.newMode}`);
    const before = utf8Text(blobs.get(entry.oldBlob)!);
    if (before === undefined) return no('not UTF-8', entry.oldPath);
    const [was, now] = [lineBreaks(before), lineBreaks(after)];
    if (was === 'mixed' || now === 'mixed') return no('mixed LF and CRLF', entry.newPath);
    if (was !== now && was !== 'none' && now !== 'none')
      return no('line breaks change', `${entry.newPath}: ${was} → ${now}`);
    const finalBreak = (text: string) => text === '' || text.endsWith('\n');
    if (finalBreak(before) !== finalBreak(after)) return no('final newline added or removed', entry.newPath);
    out.lines.push(`*** Update File: ${entry.oldPath}`);
    if (entry.newPath !== entry.oldPath) out.lines.push(`*** Move to: ${entry.newPath}`);
    renderHunks(textLines(before), sections[k]!.hunks, out);
  }
  out.lines.push('*** End Patch');
  return {
    ok: true,
    text: `${out.lines.join('\n')}\n`,
    ambiguousFirst: out.ambiguousFirst,
    ambiguousLater: out.ambiguousLater,
  };
}
