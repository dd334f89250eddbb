import { type EditorFailure, failure } from '../errors.js';
import type { EditorLimits } from '../limits.js';
import { findMatches } from './find-matches.js';
import { type FuzzyTier, fuzzyLocate } from './fuzzy.js';
import {
  applySurroundingEndings,
  dominantLineEnding,
  type NormalizedText,
  normalizeLineEndings,
  toOriginalOffset,
} from './line-endings.js';
import { LineCounter } from './lines.js';
import { explainMiss } from './miss-report.js';
import type { Change } from './unified-diff.js';

/** One replacement request: what `edit` takes and what each entry of `multi_edit` holds. */
export interface EditSpec {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

/** How an edit found its text: exactly, or through one of the fuzzy tiers. */
export type MatchStrategy = 'exact' | FuzzyTier;

/** What one applied edit reports: how it matched and where the new text now sits (1-based, inclusive). */
export interface AppliedEdit {
  strategy: MatchStrategy;
  start_line: number;
  end_line: number;
  replacements: number;
}

/** A replacement of `[start, end)` of LF-normalized text by `text` (LF line breaks). */
export interface Replacement {
  start: number;
  end: number;
  text: string;
}

/** The outcome of one edit on a text held in memory. */
export type EditStep =
  | {
      ok: true;
      /** The new text in the file's own line endings. */
      text: string;
      /** LF-normalized text before and after, and the changes between them (for a diff). */
      before: string;
      after: string;
      changes: Change[];
      applied: AppliedEdit;
    }
  | { ok: false; failure: EditorFailure };

/** Settings of {@link applyEdit}. */
export interface ApplyEditOptions {
  /** Try the fuzzy tiers when the exact text is not found. */
  fuzzy: boolean;
  /** How the file is named in messages. */
  relative: string;
  limits: EditorLimits;
}

/** 1-based line range that `text` occupies when it starts on `firstLine` (an empty text is its start line). */
export function lineRange(firstLine: number, text: string): { start_line: number; end_line: number } {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  let breaks = 0;
  for (let i = body.indexOf('\n'); i >= 0; i = body.indexOf('\n', i + 1)) breaks++;
  return { start_line: firstLine, end_line: firstLine + breaks };
}

/**
 * Applies replacements (LF-normalized offsets, ascending, non-overlapping) to text in its own line endings: each
 * replacement's line breaks take the endings of the span it replaces. Returns the new text in both forms.
 */
export function applyReplacements(
  original: string,
  normalized: NormalizedText,
  replacements: readonly Replacement[],
): { text: string; after: string; changes: Change[] } {
  const fallback = dominantLineEnding(original, normalized);
  const out: string[] = [];
  const outN: string[] = [];
  const changes: Change[] = [];
  let origAt = 0;
  let normAt = 0;
  let newLength = 0;
  for (const r of replacements) {
    const start = toOriginalOffset(normalized, r.start);
    const end = toOriginalOffset(normalized, r.end);
    out.push(original.slice(origAt, start), applySurroundingEndings(r.text, original, start, end, fallback));
    outN.push(normalized.text.slice(normAt, r.start), r.text);
    newLength += r.start - normAt;
    changes.push({ oldStart: r.start, oldEnd: r.end, newStart: newLength, newEnd: newLength + r.text.length });
    newLength += r.text.length;
    origAt = end;
    normAt = r.end;
  }
  out.push(original.slice(origAt));
  outN.push(normalized.text.slice(normAt));
  return { text: out.join(''), after: outN.join(''), changes };
}

/** Finds `old_string` in a text (exactly, then fuzzily when allowed) and replaces it, all in memory. */
export function applyEdit(original: string, spec: EditSpec, options: ApplyEditOptions): EditStep {
  const normalized = normalizeLineEndings(original);
  const text = normalized.text;
  const oldN = spec.oldString.replaceAll('\r\n', '\n');
  const newN = spec.newString.replaceAll('\r\n', '\n');
  const { limits, relative } = options;
  const matches = findMatches(text, oldN);
  let replacements: Replacement[];
  let strategy: MatchStrategy = 'exact';
  if (matches.length === 0) {
    const fuzzy = options.fuzzy && !spec.replaceAll ? fuzzyLocate(text, oldN, newN, limits) : { kind: 'none' as const };
    if (fuzzy.kind === 'ambiguous') {
      return {
        ok: false,
        failure: failure(
          'ambiguous_match',
          `old_string was not found exactly in ${relative}, and ${fuzzy.candidates.length} places match it loosely ` +
            `(${fuzzy.tier.replaceAll('_', ' ')}): ${fuzzy.candidates.map((c) => `lines ${c.start_line}-${c.end_line}`).join(', ')}. ` +
            'Nothing was changed. Copy the exact text of the one you mean, with a line or two around it.',
          { tier: fuzzy.tier, candidates: fuzzy.candidates },
        ),
      };
    }
    if (fuzzy.kind === 'refused') {
      return {
        ok: false,
        failure: failure('ambiguous_match', `${fuzzy.reason} Nothing was changed.`, { tier: fuzzy.tier }),
      };
    }
    if (fuzzy.kind === 'none') {
      const miss = explainMiss(text, oldN, {
        maxCandidates: limits.maxCandidates,
        minSimilarity: limits.minCandidateSimilarity,
        maxComparisons: limits.maxCandidateComparisons,
        maxChars: limits.maxCandidateChars,
      });
      return {
        ok: false,
        failure: failure(
          'not_found_in_file',
          `old_string was not found in ${relative}. ${miss.hint} Re-read the file and copy the exact text.`,
          { reason: miss.reason, candidates: miss.candidates },
        ),
      };
    }
    strategy = fuzzy.tier;
    replacements = [{ start: fuzzy.start, end: fuzzy.end, text: fuzzy.replacement }];
  } else if (matches.length > 1 && !spec.replaceAll) {
    const counter = new LineCounter(text);
    const lines = matches.slice(0, limits.maxReportedMatches).map((m) => counter.lineAt(m));
    return {
      ok: false,
      failure: failure(
        'multiple_matches',
        `old_string occurs ${matches.length} times in ${relative} (lines ${lines.join(', ')}${matches.length > lines.length ? ', …' : ''}). ` +
          'Add surrounding lines to make it unique, or set replace_all to true to change every occurrence.',
        { match_count: matches.length, match_lines: lines },
      ),
    };
  } else {
    replacements = matches.map((m) => ({ start: m, end: m + oldN.length, text: newN }));
  }
  const done = applyReplacements(original, normalized, replacements);
  const counter = new LineCounter(done.after);
  const first = done.changes[0]!;
  const last = done.changes[done.changes.length - 1]!;
  const startLine = counter.lineAt(first.newStart);
  const endLine =
    last.newEnd > last.newStart
      ? lineRange(counter.lineAt(last.newStart), done.after.slice(last.newStart, last.newEnd)).end_line
      : counter.lineAt(last.newStart);
  return {
    ok: true,
    text: done.text,
    before: text,
    after: done.after,
    changes: done.changes,
    applied: { strategy, start_line: startLine, end_line: endLine, replacements: replacements.length },
  };
}
