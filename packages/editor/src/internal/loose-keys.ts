import type { LineKey } from './line-index.js';

/** The fuzzy tiers, tried in this order once the exact text is not found. */
export type FuzzyTier =
  | 'trailing_whitespace'
  | 'indentation'
  | 'unicode_punctuation'
  | 'escaped_characters'
  | 'line_number_prefix';

/** Trailing whitespace of a line (CR included). */
export const TRAILING = /[ \t\f\v\r]+$/u;
const LEADING = /^[ \t]*/u;
const NOT_ASCII = /[\u0080-\uffff]/;

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

/** A line with its typographic look-alikes turned into the ASCII a program would have. */
export function foldPunctuation(line: string): string {
  if (!NOT_ASCII.test(line)) return line;
  let out = line;
  for (const [pattern, ascii] of PUNCTUATION) out = out.replace(pattern, ascii);
  return out;
}

/** Characters {@link foldPunctuation} changes (a line with none of them is already folded). */
export const LOOK_ALIKE = /[\u2018-\u201F\u2032-\u2036\u2010-\u2015\u2212\u00A0\u2000-\u200A\u202F\u205F\u3000\u2026]/u;

const trailingKey: LineKey = (line) => line.replace(TRAILING, '');
const indentKey: LineKey = (line) => line.replace(TRAILING, '').replace(LEADING, '');
const punctuationKey: LineKey = (line) => indentKey(foldPunctuation(line));

/** One loose tier over whole lines: the key lines are compared by, and whether an indentation shift is allowed. */
export interface Attempt {
  tier: FuzzyTier;
  key: LineKey;
  indentation: boolean;
}

/** The line-by-line loose tiers, in the order they are tried. */
export const ATTEMPTS: readonly Attempt[] = [
  { tier: 'trailing_whitespace', key: trailingKey, indentation: false },
  { tier: 'indentation', key: indentKey, indentation: true },
  { tier: 'unicode_punctuation', key: punctuationKey, indentation: true },
];

/** The loosest key: two lines equal under any tier are equal under it (used to bound where a block could go). */
export const LOOSEST_KEY: LineKey = punctuationKey;
