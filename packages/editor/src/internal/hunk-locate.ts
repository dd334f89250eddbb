import type { Paced } from '@bough/workspace/internal';
import type { MatchStrategy } from './apply-edit.js';
import { looseWindows, rewriteLines } from './fuzzy.js';
import type { HunkChoice } from './hunk-choice.js';
import { EXACT_KEY, type KeyedLines } from './line-index.js';
import type { PatchHunk } from './patch-parse.js';

/**
 * How a hunk was placed: `exact` (its one place after the hunk before), `first_occurrence` (the first of several
 * places, provably the right one), or the loose tier that found its one place.
 */
export type HunkStrategy = MatchStrategy | 'first_occurrence';

/** Where a hunk goes, how it was found, and the lines it puts there. */
export interface Located {
  at: number;
  strategy: HunkStrategy;
  lines: string[];
}

/** Why a hunk was not placed, with the places it could have gone when there were several. */
export type Failed = { fail: string; candidates?: number[] };

/** What locating one hunk needs besides the hunk: the file's lines, their indexes and the order proofs. */
export interface Search {
  lines: string[];
  /** The indexes of the lines (the exact one is built when a hunk first needs a search, not for a header hit). */
  keyed: KeyedLines;
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
export function* locate(
  search: Search,
  hunk: PatchHunk,
  hunkIndex: number,
  old: string[],
  fresh: string[],
  from: number,
): Paced<Located | Failed> {
  const { lines, keyed, fuzzy } = search;
  const to = lines.length;
  if (hunk.eof) {
    const at = to - old.length;
    if (at >= from && exactAt(lines, old, at)) return { at, strategy: 'exact', lines: fresh };
  } else if (hunk.oldStart !== undefined && exactAt(lines, old, hunk.oldStart - 1) && hunk.oldStart - 1 >= from) {
    return { at: hunk.oldStart - 1, strategy: 'exact', lines: fresh };
  }
  const start = hunk.eof ? Math.max(from, to - old.length) : from;
  const exact = yield* keyed.index(EXACT_KEY);
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
export function* contextLine(search: Search, wanted: string, from: number): Paced<number> {
  // An '@@' line is compared whole (its own line, not a block), so scanning for it is one index lookup.
  let found = -1;
  const first = (at: number) => {
    found = at;
    return false;
  };
  const exact = yield* search.keyed.index(EXACT_KEY);
  yield* exact.scan([wanted], from, search.lines.length, search.keyed.meter, first);
  if (found < 0 && search.fuzzy) {
    const trimmed = yield* search.keyed.index(TRIM_KEY);
    yield* trimmed.scan([wanted], from, search.lines.length, search.keyed.meter, first);
  }
  return found;
}

const TRIM_KEY = (line: string): string => line.trim();
