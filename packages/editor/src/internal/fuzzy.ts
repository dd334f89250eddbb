import type { EditorLimits } from '../limits.js';
import { findMatches } from './find-matches.js';
import { type Reindent, reindentFor } from './indentation.js';

/** The fuzzy tiers, tried in this order once the exact text is not found. */
export type FuzzyTier =
  | 'trailing_whitespace'
  | 'indentation'
  | 'unicode_punctuation'
  | 'escaped_characters'
  | 'line_number_prefix';

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

const TRAILING = /[ \t\f\v\r]+$/u;
const LEADING = /^[ \t]*/u;

// Typographic look-alikes a model (or a word processor) puts where the code has ASCII, or the other way round.
const PUNCTUATION: ReadonlyArray<[RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032\u2035]/gu, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033\u2036]/gu, '"'],
  // Smart punctuation turns "--" into an em dash and "-" into an en dash.
  [/[\u2014\u2015]/gu, '--'],
  [/[\u2010\u2011\u2012\u2013\u2212\uFE58\uFE63\uFF0D]/gu, '-'],
  [/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/gu, ' '],
  [/\u2026/gu, '...'],
  [/\u200B|\u200C|\u200D|\u2060|\uFEFF/gu, ''],
];

function foldPunctuation(line: string): string {
  let out = line;
  for (const [pattern, ascii] of PUNCTUATION) out = out.replace(pattern, ascii);
  return out;
}

type Key = (line: string) => string;
const trailingKey: Key = (line) => line.replace(TRAILING, '');
const indentKey: Key = (line) => line.replace(TRAILING, '').replace(LEADING, '');
const punctuationKey: Key = (line) => indentKey(foldPunctuation(line));

/** A file split into lines with their start offsets (LF-normalized text). */
interface FileLines {
  lines: string[];
  starts: number[];
  text: string;
}

function splitFile(text: string): FileLines {
  const lines = text.split('\n');
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  return { lines, starts, text };
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

const LOOK_ALIKE = /[\u2018-\u201F\u2032-\u2036\u2010-\u2015\u2212\u00A0\u2000-\u200A\u202F\u205F\u3000\u2026]/u;

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

/** Windows of the filewhose lines equal old's lines under `key` (and, with indentation allowed, shift consistently). */
function windowsFor(
  file: { lines: string[] },
  old: readonly string[],
  key: Key,
  indentation: boolean,
  from = 0,
  to = file.lines.length,
  tier: FuzzyTier = 'trailing_whitespace',
): Window[] {
  const wanted = old.map(key);
  const anchor = wanted.findIndex((line) => line !== '');
  if (anchor < 0) return [];
  const found: Window[] = [];
  const k = old.length;
  for (let i = from; i + k <= to; i++) {
    if (key(file.lines[i + anchor]!) !== wanted[anchor]) continue;
    let same = true;
    for (let j = 0; j < k && same; j++) same = key(file.lines[i + j]!) === wanted[j];
    if (!same) continue;
    const lines = file.lines.slice(i, i + k);
    const tidy = tidyFor(old, lines, tier);
    if (!indentation) {
      found.push({ line: i, reindent: undefined, ...(tidy ? { tidy } : {}) });
      continue;
    }
    const reindent = reindentFor(old, lines, (line) => key(line) === '');
    if (reindent) found.push({ line: i, reindent, ...(tidy ? { tidy } : {}) });
  }
  return found;
}

interface Attempt {
  tier: FuzzyTier;
  key: Key;
  indentation: boolean;
}

const ATTEMPTS: readonly Attempt[] = [
  { tier: 'trailing_whitespace', key: trailingKey, indentation: false },
  { tier: 'indentation', key: indentKey, indentation: true },
  { tier: 'unicode_punctuation', key: punctuationKey, indentation: true },
];

function candidateOf(file: FileLines, line: number, k: number, maxChars: number): FuzzyCandidate {
  let text = file.lines.slice(line, line + k).join('\n');
  if (text.length > maxChars) text = `${text.slice(0, maxChars)}… [cut]`;
  return { start_line: line + 1, end_line: line + k, text };
}

/**
 * The first loose tier under which `old` matches lines of `lines[from, to)` (every window of that tier), or undefined
 * when none does. Used by patch hunks, which are lines already.
 */
export function looseWindows(
  lines: string[],
  old: readonly string[],
  from: number,
  to: number,
): { tier: FuzzyTier; windows: Window[] } | undefined {
  if (old.every((line) => line.trim() === '')) return undefined;
  for (const attempt of ATTEMPTS) {
    const windows = windowsFor({ lines }, old, attempt.key, attempt.indentation, from, to, attempt.tier);
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

function locate(
  file: FileLines,
  oldN: string,
  newN: string,
  tierOverride: FuzzyTier | undefined,
  limits: EditorLimits,
): FuzzyResult {
  const old = blockLines(oldN);
  if (old.every((line) => line.trim() === '')) return { kind: 'none' };
  const k = old.length;
  for (const attempt of ATTEMPTS) {
    const tier = tierOverride ?? attempt.tier;
    const windows = windowsFor(file, old, attempt.key, attempt.indentation, 0, file.lines.length, attempt.tier);
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
function locateRewritten(
  file: FileLines,
  oldN: string,
  newN: string,
  tier: FuzzyTier,
  limits: EditorLimits,
): FuzzyResult {
  const exact = findMatches(file.text, oldN);
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
  return locate(file, oldN, newN, tier, limits);
}

/**
 * The fuzzy search, run only after the exact text was not found. Each tier must find exactly one place, or the edit
 * is refused with the candidates; a tier that finds nothing hands over to the next. Matching is by whole lines, so a
 * loose match never covers more lines than old_string has.
 */
export function fuzzyLocate(text: string, oldN: string, newN: string, limits: EditorLimits): FuzzyResult {
  const file = splitFile(text);
  const direct = locate(file, oldN, newN, undefined, limits);
  if (direct.kind !== 'none') return direct;
  const unescaped = unescapeLiteral(oldN);
  if (unescaped !== oldN && /\\[nt]/u.test(oldN)) {
    const found = locateRewritten(file, unescaped, unescapeLiteral(newN), 'escaped_characters', limits);
    if (found.kind !== 'none') return found;
  }
  const stripped = stripLinePrefixes(oldN);
  if (stripped !== undefined) {
    const freshStripped = newN === '' ? '' : (stripLinePrefixes(newN) ?? newN);
    const found = locateRewritten(file, stripped, freshStripped, 'line_number_prefix', limits);
    if (found.kind !== 'none') return found;
  }
  return { kind: 'none' };
}
