import { DEFAULT_EDITOR_LIMITS, type EditorLimits } from '../limits.js';
import type { MatchStrategy, Replacement } from './apply-edit.js';
import { looseWindows, rewriteLines } from './fuzzy.js';
import { HunkChoice } from './hunk-choice.js';
import { EXACT_KEY, KeyedLines, type LineIndex } from './line-index.js';
import type { PatchHunk } from './patch-parse.js';
import { drive, type Paced, WorkMeter } from './work-meter.js';

/**
 * How a hunk was placed: `exact` (its one place after the hunk before), `first_occurrence` (the first of several
 * places, provably the right one), or the loose tier that found its one place.
 */
export type HunkStrategy = MatchStrategy | 'first_occurrence';

/** How one hunk matched and the lines its new text occupies in the new file (1-based). */
export interface HunkReport {
  strategy: HunkStrategy;
  start_line: number;
  end_line: number;
}

/** Every hunk of a file located and turned into replacements, or the first one that does not apply. */
export type HunkResult =
  | { ok: true; replacements: Replacement[]; hunks: HunkReport[] }
  | {
      ok: false;
      hunk: number;
      reason: string;
      candidates?: number[];
      /** Set when the search stopped before deciding: over `maxMatchWork`, or the call was aborted. */
      stop?: 'too_large' | 'aborted';
    };

interface Located {
  at: number;
  strategy: HunkStrategy;
  lines: string[];
}

type Failed = { fail: string; candidates?: number[] };

/** What locating one hunk needs besides the hunk: the file's lines, their indexes and the order proofs. */
interface Search {
  lines: string[];
  keyed: KeyedLines;
  exact: LineIndex;
  choice: HunkChoice;
  fuzzy: boolean;
}

/** Most places of one hunk collected (enough to tell one from several and to list a few). */
const MAX_PLACES = 6;

function exactAt(lines: readonly string[], old: readonly string[], at: number): boolean {
  if (at < 0 || at + old.length > lines.length) return false;
  for (let j = 0; j < old.length; j++) if (lines[at + j] !== old[j]) return false;
  return true;
}

/**
 * Finds where a hunk's old lines are: the unified header's line first, then once after the cursor, then the first of
 * several when that is provably right (apply_patch only), then loosely once.
 */
function* locate(
  search: Search,
  hunk: PatchHunk,
  hunkIndex: number,
  old: string[],
  fresh: string[],
  from: number,
): Paced<Located | Failed> {
  const { lines, keyed, exact, fuzzy } = search;
  const to = lines.length;
  if (hunk.eof) {
    const at = to - old.length;
    if (at >= from && exactAt(lines, old, at)) return { at, strategy: 'exact', lines: fresh };
  } else if (hunk.oldStart !== undefined && exactAt(lines, old, hunk.oldStart - 1) && hunk.oldStart - 1 >= from) {
    return { at: hunk.oldStart - 1, strategy: 'exact', lines: fresh };
  }
  const start = hunk.eof ? Math.max(from, to - old.length) : from;
  let places = exact.quick(old, start, to, MAX_PLACES, keyed.meter);
  if (!places) {
    const found: number[] = [];
    yield* exact.scan(old, start, to, keyed.meter, (at) => found.push(at) < MAX_PLACES);
    places = found;
  }
  if (places.length === 1) return { at: places[0]!, strategy: 'exact', lines: fresh };
  if (places.length > 1) {
    if (hunk.oldStart === undefined && (yield* search.choice.firstIsForced(hunkIndex, old, fresh, places))) {
      return { at: places[0]!, strategy: 'first_occurrence', lines: fresh };
    }
    const shown = places.slice(0, 5).map((n) => n + 1);
    return {
      fail: `its lines occur ${places.length === MAX_PLACES ? 'more than 5' : places.length} times (at lines ${shown.join(', ')}); add context lines or an '@@' line to pick one`,
      candidates: shown,
    };
  }
  if (!fuzzy) return { fail: 'its context and removed lines are not in the file' };
  const loose = yield* looseWindows(keyed, old, start, to, MAX_PLACES);
  if (!loose) return { fail: 'its context and removed lines are not in the file (not even loosely)' };
  if (loose.windows.length > 1) {
    const count = loose.windows.length === MAX_PLACES ? 'more than 5' : loose.windows.length;
    return {
      fail: `its lines match ${count} places loosely (${loose.tier.replaceAll('_', ' ')}); add context lines`,
      candidates: loose.windows.slice(0, 5).map((w) => w.line + 1),
    };
  }
  const window = loose.windows[0]!;
  const rewritten = rewriteLines(lines, window, old, fresh);
  if (!rewritten)
    return { fail: 'its lines match once re-indented, but its new lines cannot be re-indented the same way' };
  return { at: window.line, strategy: loose.tier, lines: rewritten };
}

/** The first line at or after `from` equal to `wanted` (trimmed on both sides when `fuzzy` and none is exact), or -1. */
function* contextLine(search: Search, wanted: string, from: number): Paced<number> {
  // An '@@' line is compared whole (its own line, not a block), so scanning for it is one index lookup.
  let found = -1;
  const first = (at: number) => {
    found = at;
    return false;
  };
  yield* search.exact.scan([wanted], from, search.lines.length, search.keyed.meter, first);
  if (found < 0 && search.fuzzy) {
    const trimmed = yield* search.keyed.index(TRIM_KEY);
    yield* trimmed.scan([wanted], from, search.lines.length, search.keyed.meter, first);
  }
  return found;
}

const TRIM_KEY = (line: string): string => line.trim();

/**
 * Locates every hunk of a file, in order, each after the one before (an apply_patch `@@ line` first moves past that
 * line), and turns them into replacements of the LF-normalized text. A hunk must match exactly once (a unified diff's
 * header line wins when its lines are there), at the first of several places when that is provably the right one
 * (apply_patch), or, with `fuzzy`, loosely at exactly one place. The search is paced: it returns to the event loop
 * now and then, stops at an abort, and stops with `too_large` past `maxMatchWork` steps.
 */
export async function applyHunks(
  text: string,
  hunks: readonly PatchHunk[],
  fuzzy: boolean,
  limits: EditorLimits = DEFAULT_EDITOR_LIMITS,
  signal?: AbortSignal,
): Promise<HunkResult> {
  const meter = new WorkMeter(limits.maxMatchWork, signal);
  const driven = await drive(placeHunks(text, hunks, fuzzy, meter), meter);
  if (driven.ok) return driven.value;
  return driven.stop === 'aborted'
    ? { ok: false, hunk: 0, reason: 'the call was cancelled while its hunks were being located', stop: 'aborted' }
    : {
        ok: false,
        hunk: 0,
        reason:
          `locating its hunks needed more than the maxMatchWork budget (${limits.maxMatchWork} steps), so the ` +
          'search stopped; split the patch into smaller ones, each hunk with a few distinctive context lines',
        stop: 'too_large',
      };
}

function* placeHunks(text: string, hunks: readonly PatchHunk[], fuzzy: boolean, meter: WorkMeter): Paced<HunkResult> {
  const finalNewline = text.endsWith('\n');
  const lines = text === '' ? [] : (finalNewline ? text.slice(0, -1) : text).split('\n');
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const keyed = new KeyedLines(lines, meter);
  const search: Search = {
    lines,
    keyed,
    exact: yield* keyed.index(EXACT_KEY),
    choice: new HunkChoice(keyed, hunks, fuzzy),
    fuzzy,
  };
  const startOf = (line: number) => (line < lines.length ? starts[line]! : text.length);
  const placed: Placed[] = [];
  let cursor = 0;
  for (const [index, hunk] of hunks.entries()) {
    if (hunk.context !== undefined) {
      const found = yield* contextLine(search, hunk.context, cursor);
      if (found < 0)
        return {
          ok: false,
          hunk: index,
          reason: `its '@@ ${hunk.context.trim().slice(0, 80)}' line is not in the file`,
        };
      cursor = found + 1;
    }
    let old = hunk.oldLines;
    let fresh = hunk.newLines;
    let at: Located | Failed;
    if (old.length === 0) {
      const where =
        hunk.oldStart !== undefined
          ? Math.max(cursor, hunk.oldStart)
          : hunk.context !== undefined
            ? cursor
            : lines.length;
      at = { at: where, strategy: 'exact', lines: fresh };
    } else {
      at = yield* locate(search, hunk, index, old, fresh, cursor);
      // A blank line closing a hunk is often a separator, not context: try once more without it.
      if ('fail' in at && old[old.length - 1] === '' && fresh[fresh.length - 1] === '' && old.length > 1) {
        old = old.slice(0, -1);
        fresh = fresh.slice(0, -1);
        const again = yield* locate(search, hunk, index, old, fresh, cursor);
        if (!('fail' in again)) at = again;
      }
    }
    // Building the replacement costs about the hunk's lines: counted so a patch of many small hunks pauses too.
    meter.note(4 + old.length + fresh.length);
    if (meter.due()) yield;
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
    placed.push({
      hunk: index,
      at: at.at,
      old: old.length,
      fresh: at.lines.length,
      strategy: at.strategy,
      start,
      end,
      body,
    });
    // Like Codex, an apply_patch insertion without an '@@' line goes at the end and leaves the cursor where it was.
    if (!(old.length === 0 && hunk.context === undefined && hunk.oldStart === undefined)) cursor = endLine;
  }
  return { ok: true, ...inFileOrder(placed) };
}

interface Placed {
  hunk: number;
  at: number;
  old: number;
  fresh: number;
  strategy: HunkStrategy;
  start: number;
  end: number;
  body: string;
}

/** Replacements in file order (an insertion at the end may come before hunks placed after it) and reports by hunk. */
function inFileOrder(placed: Placed[]): { replacements: Replacement[]; hunks: HunkReport[] } {
  const sorted = [...placed].sort((a, b) => a.start - b.start || a.hunk - b.hunk);
  const hunks = new Array<HunkReport>(placed.length);
  let delta = 0;
  for (const p of sorted) {
    const first = p.at + delta + 1;
    hunks[p.hunk] = { strategy: p.strategy, start_line: first, end_line: first + Math.max(p.fresh, 1) - 1 };
    delta += p.fresh - p.old;
  }
  return { replacements: sorted.map((p) => ({ start: p.start, end: p.end, text: p.body })), hunks };
}
