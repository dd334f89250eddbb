import type { Paced, WorkMeter } from '@bough/workspace/internal';
import type { EditorLimits } from '../limits.js';
import { findMatches } from './find-matches.js';
import { type Reindent, reindentFor } from './indentation.js';
import { KeyedLines } from './line-index.js';
import { ATTEMPTS, type Attempt, type FuzzyTier, foldPunctuation, LOOK_ALIKE, TRAILING } from './loose-keys.js';

export type { FuzzyTier } from './loose-keys.js';

/** A place a loose match could apply, reported when there is more than one. */
export interface FuzzyCandidate {
  start_line: number;
  end_line: number;
  text: string;
}

/** What the fuzzy search decided. */
export type FuzzyResult =
  | { kind: 'found'; tier: FuzzyTier; start: number; end: number; replacement: string }
  | { kind: 'ambiguous'; tier: FuzzyTier; candidates: FuzzyCandidate[] }
  | { kind: 'refused'; tier: FuzzyTier; reason: string }
  | { kind: 'none' };

/** A file split into lines with their start offsets (LF-normalized text). */
interface FileLines {
  lines: string[];
  starts: number[];
  text: string;
  /** The line indexes, shared by every tier and rewrite of one search. */
  keyed: KeyedLines;
}

function splitFile(text: string, meter: WorkMeter): FileLines {
  const lines = text.split('\n');
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  return { lines, starts, text, keyed: new KeyedLines(lines, meter) };
}

function blockLines(block: string): string[] {
  const lines = block.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Pairs each line of `b` with an equal line of `a` (longest common subsequence); -1 where there is none. */
function matchLines(a: readonly string[], b: readonly string[]): number[] {
  const n = a.length;
  const m = b.length;
  const paired = new Array<number>(m).fill(-1);
  if (n * m > 4_000_000) return paired;
  const table = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] =
        a[i] === b[j]
          ? table[(i + 1) * (m + 1) + j + 1]! + 1
          : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      paired[j] = i;
      i++;
      j++;
    } else if (table[(i + 1) * (m + 1) + j]! >= table[i * (m + 1) + j + 1]!) i++;
    else j++;
  }
  return paired;
}

/** A place in the file where old lines match loosely, with how to re-indent new lines for it. */
export interface Window {
  line: number;
  reindent: Reindent | undefined;
  /** Undoes, on new lines, a slip old_string showed (trailing spaces or look-alikes the file does not have). */
  tidy?: (line: string) => string;
}

/** The slip to undo on new lines when old_string had it and the matched file lines do not. */
function tidyFor(old: readonly string[], window: readonly string[], tier: FuzzyTier): Window['tidy'] {
  const strip = old.some((line, j) => TRAILING.test(line) && !TRAILING.test(window[j]!));
  const fold =
    tier === 'unicode_punctuation' &&
    old.some((line) => LOOK_ALIKE.test(line)) &&
    !window.some((line) => LOOK_ALIKE.test(line));
  if (!strip && !fold) return undefined;
  return (line) => {
    const folded = fold ? foldPunctuation(line) : line;
    return strip ? folded.replace(TRAILING, '') : folded;
  };
}

/**
 * Up to `want` places in `[from, to)` whose lines equal old's lines under the attempt's key (and, with indentation
 * allowed, shift consistently), in file order. Found through the key's line index, so the cost follows how often
 * old's rarest line occurs rather than the file's length times old's.
 */
function* windowsFor(
  keyed: KeyedLines,
  old: readonly string[],
  attempt: Attempt,
  from: number,
  to: number,
  want: number,
): Paced<Window[]> {
  const { key, indentation, tier } = attempt;
  if (old.every((line) => key(line) === '')) return [];
  const index = yield* keyed.index(key);
  const found: Window[] = [];
  const k = old.length;
  yield* index.scan(old, from, to, keyed.meter, (at) => {
    const lines = keyed.lines.slice(at, at + k);
    keyed.meter.spend(k);
    const tidy = tidyFor(old, lines, tier);
    if (!indentation) found.push({ line: at, reindent: undefined, ...(tidy ? { tidy } : {}) });
    else {
      const reindent = reindentFor(old, lines, (line) => key(line) === '');
      if (reindent) found.push({ line: at, reindent, ...(tidy ? { tidy } : {}) });
    }
    return found.length < want;
  });
  return found;
}

function candidateOf(file: FileLines, line: number, k: number, maxChars: number): FuzzyCandidate {
  let text = file.lines.slice(line, line + k).join('\n');
  if (text.length > maxChars) text = `${text.slice(0, maxChars)}… [cut]`;
  return { start_line: line + 1, end_line: line + k, text };
}

/**
 * The first loose tier under which `old` matches lines of `[from, to)`, with up to `want` of its places in file order,
 * or undefined when none does. Used by patch hunks, which are lines already.
 */
export function* looseWindows(
  keyed: KeyedLines,
  old: readonly string[],
  from: number,
  to: number,
  want: number,
): Paced<{ tier: FuzzyTier; windows: Window[] } | undefined> {
  if (old.every((line) => line.trim() === '')) return undefined;
  for (const attempt of ATTEMPTS) {
    const windows = yield* windowsFor(keyed, old, attempt, from, to, want);
    if (windows.length > 0) return { tier: attempt.tier, windows };
  }
  return undefined;
}

/** New lines for a loose window: lines unchanged from `old` take the file's text, others are re-indented. */
export function rewriteLines(
  lines: readonly string[],
  window: Window,
  old: readonly string[],
  fresh: readonly string[],
): string[] | undefined {
  const paired = matchLines(old, fresh);
  const out: string[] = [];
  for (let j = 0; j < fresh.length; j++) {
    const from = paired[j]!;
    if (from >= 0) {
      out.push(lines[window.line + from]!);
      continue;
    }
    const line = window.tidy ? window.tidy(fresh[j]!) : fresh[j]!;
    if (!window.reindent) out.push(line);
    else if (line.trim() === '') out.push('');
    else {
      const moved = window.reindent(line);
      if (moved === undefined) return undefined;
      out.push(moved);
    }
  }
  return out;
}

/** The replacement for one window: lines kept from old_string take the file's own text, new ones are re-indented. */
function replacementFor(
  file: FileLines,
  window: Window,
  old: readonly string[],
  newString: string,
): string | undefined {
  if (newString === '') return '';
  const out = rewriteLines(file.lines, window, old, blockLines(newString));
  return out && out.join('\n') + (newString.endsWith('\n') ? '\n' : '');
}

function* locate(
  file: FileLines,
  oldN: string,
  newN: string,
  tierOverride: FuzzyTier | undefined,
  limits: EditorLimits,
): Paced<FuzzyResult> {
  const old = blockLines(oldN);
  if (old.every((line) => line.trim() === '')) return { kind: 'none' };
  const k = old.length;
  const want = Math.max(2, limits.maxCandidates);
  for (const attempt of ATTEMPTS) {
    const tier = tierOverride ?? attempt.tier;
    const windows = yield* windowsFor(file.keyed, old, attempt, 0, file.lines.length, want);
    if (windows.length === 0) continue;
    if (windows.length > 1) {
      return {
        kind: 'ambiguous',
        tier,
        candidates: windows
          .slice(0, limits.maxCandidates)
          .map((w) => candidateOf(file, w.line, k, limits.maxCandidateChars)),
      };
    }
    const window = windows[0]!;
    const start = file.starts[window.line]!;
    const lastLine = window.line + k - 1;
    let end = file.starts[lastLine]! + file.lines[lastLine]!.length;
    if (oldN.endsWith('\n')) {
      if (end >= file.text.length) return { kind: 'none' };
      end += 1;
    }
    if (end - start > limits.fuzzyMaxSpanRatio * oldN.length + 8 * k) {
      return {
        kind: 'refused',
        tier,
        reason: `A loose match at lines ${window.line + 1}-${lastLine + 1} spans far more text than old_string, so it was not used.`,
      };
    }
    const replacement = replacementFor(file, window, old, newN);
    if (replacement === undefined) {
      return {
        kind: 'refused',
        tier,
        reason:
          `old_string matches lines ${window.line + 1}-${lastLine + 1} once their indentation is shifted, but new_string ` +
          'has a line that cannot be shifted the same way. Copy the exact indentation from the file.',
      };
    }
    return { kind: 'found', tier, start, end, replacement };
  }
  return { kind: 'none' };
}

/** Turns the escape sequences a model wrote literally (`\n`, `\t`, `\"`, `\\`) into the characters. */
export function unescapeLiteral(text: string): string {
  return text.replace(/\\(n|t|r|"|'|\\)/gu, (_, c: string) =>
    c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '' : c,
  );
}

const PREFIX = /^[ \t]*(\d+)(?:\t|→|\|)/u;

/** Removes reader row prefixes (`<number><TAB>`) when every line carries one and the numbers count up by one. */
function stripLinePrefixes(block: string): string | undefined {
  const lines = blockLines(block);
  let expected: number | undefined;
  const out: string[] = [];
  for (const line of lines) {
    const m = PREFIX.exec(line);
    if (!m) return undefined;
    const n = Number(m[1]);
    if (expected !== undefined && n !== expected) return undefined;
    expected = n + 1;
    out.push(line.slice(m[0].length));
  }
  return out.join('\n') + (block.endsWith('\n') ? '\n' : '');
}

/** An exact or loose unique match of a rewritten old_string, reported under the tier that rewrote it. */
function* locateRewritten(
  file: FileLines,
  oldN: string,
  newN: string,
  tier: FuzzyTier,
  limits: EditorLimits,
): Paced<FuzzyResult> {
  const exact = yield* findMatches(file.text, oldN, file.keyed.meter);
  if (exact.length === 1)
    return { kind: 'found', tier, start: exact[0]!, end: exact[0]! + oldN.length, replacement: newN };
  if (exact.length > 1) {
    const lines = blockLines(oldN).length;
    const starts = exact.slice(0, limits.maxCandidates).map((at) => {
      let line = 0;
      for (let i = file.text.indexOf('\n'); i >= 0 && i < at; i = file.text.indexOf('\n', i + 1)) line++;
      return line;
    });
    return {
      kind: 'ambiguous',
      tier,
      candidates: starts.map((line) => candidateOf(file, line, lines, limits.maxCandidateChars)),
    };
  }
  return yield* locate(file, oldN, newN, tier, limits);
}

/**
 * The fuzzy search, run only after the exact text was not found. Each tier must find exactly one place, or the edit
 * is refused with the candidates; a tier that finds nothing hands over to the next. Matching is by whole lines, so a
 * loose match never covers more lines than old_string has.
 */
export function* fuzzyLocate(
  text: string,
  oldN: string,
  newN: string,
  limits: EditorLimits,
  meter: WorkMeter,
): Paced<FuzzyResult> {
  const file = splitFile(text, meter);
  const direct = yield* locate(file, oldN, newN, undefined, limits);
  if (direct.kind !== 'none') return direct;
  const unescaped = unescapeLiteral(oldN);
  if (unescaped !== oldN && /\\[nt]/u.test(oldN)) {
    const found = yield* locateRewritten(file, unescaped, unescapeLiteral(newN), 'escaped_characters', limits);
    if (found.kind !== 'none') return found;
  }
  const stripped = stripLinePrefixes(oldN);
  if (stripped !== undefined) {
    const freshStripped = newN === '' ? '' : (stripLinePrefixes(newN) ?? newN);
    const found = yield* locateRewritten(file, stripped, freshStripped, 'line_number_prefix', limits);
    if (found.kind !== 'none') return found;
  }
  return { kind: 'none' };
}
