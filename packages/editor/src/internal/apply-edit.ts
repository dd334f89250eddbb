import type { Change } from '@bough/workspace/internal';
import { drive, finish, LineCounter, type Paced, WorkMeter } from '@bough/workspace/internal';
import { type EditorFailure, failure } from '../errors.js';
import type { EditorLimits } from '../limits.js';
import { findMatches } from './find-matches.js';
import { type FuzzyResult, type FuzzyTier, fuzzyLocate } from './fuzzy.js';
import {
  applySurroundingEndings,
  dominantLineEnding,
  type NormalizedText,
  normalizeLineEndings,
  toOriginalOffset,
} from './line-endings.js';
import { explainMiss } from './miss-report.js';

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
  /** Stops a long loose search at its next pause (the edit then fails with `aborted`). */
  signal?: AbortSignal | undefined;
  /** Shared by the edits of one `multi_edit`, so the budget is the call's; a fresh one per edit otherwise. */
  meter?: WorkMeter | undefined;
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
): ReplacedText {
  return finish(replacing(original, normalized, replacements, new WorkMeter(Number.POSITIVE_INFINITY)));
}

/** The new text in the file's own endings, the LF-normalized one, and the changes between old and new (normalized). */
export interface ReplacedText {
  text: string;
  after: string;
  changes: Change[];
}

/** {@link applyReplacements} as a paced search: it yields when `meter` says a turn is due (thousands of hunks). */
export function* replacing(
  original: string,
  normalized: NormalizedText,
  replacements: readonly Replacement[],
  meter: WorkMeter,
): Paced<ReplacedText> {
  // Without a CRLF the file's own endings are all LF: the new text is the normalized one, built once.
  const lfOnly = normalized.crlfAt.length === 0;
  const fallback = lfOnly ? 'lf' : dominantLineEnding(original, normalized);
  const out: string[] = [];
  const outN: string[] = [];
  const changes: Change[] = [];
  let origAt = 0;
  let normAt = 0;
  let newLength = 0;
  for (const r of replacements) {
    if (!lfOnly) {
      const start = toOriginalOffset(normalized, r.start);
      const end = toOriginalOffset(normalized, r.end);
      out.push(original.slice(origAt, start), applySurroundingEndings(r.text, original, start, end, fallback));
      origAt = end;
    }
    outN.push(normalized.text.slice(normAt, r.start), r.text);
    newLength += r.start - normAt;
    changes.push({ oldStart: r.start, oldEnd: r.end, newStart: newLength, newEnd: newLength + r.text.length });
    newLength += r.text.length;
    normAt = r.end;
    meter.note(1 + (lfOnly ? 0 : r.text.length >> 6));
    if (meter.due()) yield;
  }
  outN.push(normalized.text.slice(normAt));
  const after = outN.join('');
  if (lfOnly) return { text: after, after, changes };
  out.push(original.slice(origAt));
  return { text: out.join(''), after, changes };
}

/** A new meter for one call's searches: the `maxMatchWork` budget, paused by `signal`. */
export function matchMeter(limits: EditorLimits, signal?: AbortSignal): WorkMeter {
  return new WorkMeter(limits.maxMatchWork, signal);
}

/** The failure of a search stopped early: the call was cancelled, or it needed more work than the budget allows. */
function stopped(stop: 'too_large' | 'aborted', relative: string, limits: EditorLimits): EditorFailure {
  if (stop === 'aborted') {
    return failure('aborted', 'The call was cancelled while looking for old_string; nothing was written.');
  }
  return failure(
    'too_large',
    `old_string was not found exactly in ${relative}, and looking for it loosely needed more than the ` +
      `maxMatchWork budget (${limits.maxMatchWork} steps), so the search stopped and nothing was changed. Split the ` +
      'edit: send a shorter old_string made of a few distinctive lines, or several smaller edits.',
    { limit: 'maxMatchWork' },
  );
}

/**
 * Finds `old_string` in a text (exactly, then fuzzily when allowed) and replaces it, all in memory. The loose search
 * returns to the event loop now and then: an abort stops it (`aborted`), and one over `maxMatchWork` is `too_large`.
 */
export async function applyEdit(original: string, spec: EditSpec, options: ApplyEditOptions): Promise<EditStep> {
  const normalized = normalizeLineEndings(original);
  const text = normalized.text;
  const oldN = spec.oldString.replaceAll('\r\n', '\n');
  const newN = spec.newString.replaceAll('\r\n', '\n');
  const { limits, relative } = options;
  const meter = options.meter ?? matchMeter(limits, options.signal);
  const searched = await drive(findMatches(text, oldN, meter), meter);
  if (!searched.ok) return { ok: false, failure: stopped(searched.stop, relative, limits) };
  const matches = searched.value;
  let replacements: Replacement[];
  let strategy: MatchStrategy = 'exact';
  if (matches.length === 0) {
    let fuzzy: FuzzyResult = { kind: 'none' };
    if (options.fuzzy && !spec.replaceAll) {
      const driven = await drive(fuzzyLocate(text, oldN, newN, limits, meter), meter);
      if (!driven.ok) return { ok: false, failure: stopped(driven.stop, relative, limits) };
      fuzzy = driven.value;
    }
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
      const explained = await drive(
        explainMiss(text, oldN, {
          maxCandidates: limits.maxCandidates,
          minSimilarity: limits.minCandidateSimilarity,
          maxComparisons: limits.maxCandidateComparisons,
          maxChars: limits.maxCandidateChars,
          meter,
        }),
        meter,
      );
      if (!explained.ok) return { ok: false, failure: stopped(explained.stop, relative, limits) };
      const miss = explained.value;
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
