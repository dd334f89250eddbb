import type { MatchStrategy, Replacement } from './apply-edit.js';
import { looseWindows, rewriteLines } from './fuzzy.js';
import type { PatchHunk } from './patch-parse.js';

/** How one hunk matched and the lines its new text occupies in the new file (1-based). */
export interface HunkReport {
  strategy: MatchStrategy;
  start_line: number;
  end_line: number;
}

/** Every hunk of a file located and turned into replacements, or the first one that does not apply. */
export type HunkResult =
  | { ok: true; replacements: Replacement[]; hunks: HunkReport[] }
  | { ok: false; hunk: number; reason: string; candidates?: number[] };

interface Located {
  at: number;
  strategy: MatchStrategy;
  lines: string[];
}

function exactAt(lines: readonly string[], old: readonly string[], at: number): boolean {
  if (at < 0 || at + old.length > lines.length) return false;
  for (let j = 0; j < old.length; j++) if (lines[at + j] !== old[j]) return false;
  return true;
}

function exactIn(lines: readonly string[], old: readonly string[], from: number, to: number): number[] {
  const found: number[] = [];
  for (let i = from; i + old.length <= to; i++) if (exactAt(lines, old, i)) found.push(i);
  return found;
}

/** Finds where a hunk's old lines are: the unified header's line first, then exactly once after the cursor, then loosely once. */
function locate(
  lines: string[],
  hunk: PatchHunk,
  old: string[],
  fresh: string[],
  from: number,
  fuzzy: boolean,
): Located | { fail: string; candidates?: number[] } {
  const to = lines.length;
  if (hunk.eof) {
    const at = to - old.length;
    if (at >= from && exactAt(lines, old, at)) return { at, strategy: 'exact', lines: fresh };
  } else if (hunk.oldStart !== undefined && exactAt(lines, old, hunk.oldStart - 1) && hunk.oldStart - 1 >= from) {
    return { at: hunk.oldStart - 1, strategy: 'exact', lines: fresh };
  }
  const start = hunk.eof ? Math.max(from, to - old.length) : from;
  const exact = exactIn(lines, old, start, to);
  if (exact.length === 1) return { at: exact[0]!, strategy: 'exact', lines: fresh };
  if (exact.length > 1) {
    return {
      fail: `its lines occur ${exact.length} times (at lines ${exact
        .slice(0, 5)
        .map((n) => n + 1)
        .join(', ')}); add context lines or an '@@' line to pick one`,
      candidates: exact.slice(0, 5).map((n) => n + 1),
    };
  }
  if (!fuzzy) return { fail: 'its context and removed lines are not in the file' };
  const loose = looseWindows(lines, old, start, to);
  if (!loose) return { fail: 'its context and removed lines are not in the file (not even loosely)' };
  if (loose.windows.length > 1) {
    return {
      fail: `its lines match ${loose.windows.length} places loosely (${loose.tier.replaceAll('_', ' ')}); add context lines`,
      candidates: loose.windows.slice(0, 5).map((w) => w.line + 1),
    };
  }
  const window = loose.windows[0]!;
  const rewritten = rewriteLines(lines, window, old, fresh);
  if (!rewritten)
    return { fail: 'its lines match once re-indented, but its new lines cannot be re-indented the same way' };
  return { at: window.line, strategy: loose.tier, lines: rewritten };
}

/**
 * Locates every hunk of a file, in order, each after the one before (an apply_patch `@@ line` first moves past that
 * line), and turns them into replacements of the LF-normalized text. A hunk must match exactly once (a unified diff's
 * header line wins when its lines are there) or, with `fuzzy`, loosely at exactly one place.
 */
export function applyHunks(text: string, hunks: readonly PatchHunk[], fuzzy: boolean): HunkResult {
  const finalNewline = text.endsWith('\n');
  const lines = text === '' ? [] : (finalNewline ? text.slice(0, -1) : text).split('\n');
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const startOf = (line: number) => (line < lines.length ? starts[line]! : text.length);
  const replacements: Replacement[] = [];
  const reports: HunkReport[] = [];
  let cursor = 0;
  let delta = 0;
  for (const [index, hunk] of hunks.entries()) {
    if (hunk.context !== undefined) {
      const wanted = hunk.context.trim();
      let found = -1;
      for (let i = cursor; i < lines.length && found < 0; i++) if (lines[i] === hunk.context) found = i;
      for (let i = cursor; fuzzy && i < lines.length && found < 0; i++) if (lines[i]!.trim() === wanted) found = i;
      if (found < 0)
        return { ok: false, hunk: index, reason: `its '@@ ${wanted.slice(0, 80)}' line is not in the file` };
      cursor = found + 1;
    }
    let old = hunk.oldLines;
    let fresh = hunk.newLines;
    let at: Located | { fail: string; candidates?: number[] };
    if (old.length === 0) {
      const where =
        hunk.oldStart !== undefined
          ? Math.max(cursor, hunk.oldStart)
          : hunk.context !== undefined
            ? cursor
            : lines.length;
      at = { at: where, strategy: 'exact', lines: fresh };
    } else {
      at = locate(lines, hunk, old, fresh, cursor, fuzzy);
      // A blank line closing a hunk is often a separator, not context: try once more without it.
      if ('fail' in at && old[old.length - 1] === '' && fresh[fresh.length - 1] === '' && old.length > 1) {
        old = old.slice(0, -1);
        fresh = fresh.slice(0, -1);
        const again = locate(lines, hunk, old, fresh, cursor, fuzzy);
        if (!('fail' in again)) at = again;
      }
    }
    if ('fail' in at) {
      return { ok: false, hunk: index, reason: at.fail, ...(at.candidates ? { candidates: at.candidates } : {}) };
    }
    const endLine = at.at + old.length;
    const toEnd = endLine >= lines.length;
    const start = startOf(at.at);
    let end = toEnd ? text.length : startOf(endLine);
    let body = at.lines.map((line) => `${line}\n`).join('');
    if (toEnd) {
      const keepNewline = hunk.newNoNewline ? false : hunk.oldNoNewline ? true : finalNewline || old.length === 0;
      if (old.length === 0 && !finalNewline && lines.length > 0 && at.lines.length > 0) {
        body = `\n${at.lines.join('\n')}`; // appending to a last line that has no line break
        end = text.length;
      } else if (!keepNewline && body.endsWith('\n')) body = body.slice(0, -1);
    }
    replacements.push({ start, end, text: body });
    const first = at.at + delta + 1;
    reports.push({ strategy: at.strategy, start_line: first, end_line: first + Math.max(at.lines.length, 1) - 1 });
    delta += at.lines.length - old.length;
    cursor = endLine;
  }
  return { ok: true, replacements, hunks: reports };
}
