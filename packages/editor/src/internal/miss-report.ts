import type { Paced } from '@bough/workspace/internal';
import type { Candidate } from '../candidate.js';
import { type CandidateLimits, findCandidates } from './candidates.js';
import { occurs } from './find-matches.js';

/** Why old_string missed, when a cheap check can tell. */
export type MissReason = 'line_number_prefix' | 'escaped_characters' | 'surrounding_whitespace' | 'whitespace_only';

/** What the editor tells a model when old_string does not occur in the file. */
export interface MissReport {
  reason: MissReason | 'not_found';
  hint: string;
  candidates: Candidate[];
}

const LINE_PREFIX = /^[ \t]*\d+\t/gm;

/**
 * Works out the most likely reason for a miss and the closest windows of the file (text is LF-normalized); paced like
 * the searches, since ranking windows walks the whole file.
 */
export function* explainMiss(text: string, oldString: string, limits: CandidateLimits): Paced<MissReport> {
  const withoutPrefixes = oldString.replace(LINE_PREFIX, '');
  if (withoutPrefixes !== oldString && (yield* occurs(text, withoutPrefixes, limits.meter))) {
    return {
      reason: 'line_number_prefix',
      hint:
        'It matches once the line-number prefixes copied from reader output are removed: drop the leading ' +
        '"<number><TAB>" from every line and send only the file text.',
      candidates: [],
    };
  }
  const unescaped = oldString.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\"/g, '"');
  if (unescaped !== oldString && (yield* occurs(text, unescaped, limits.meter))) {
    return {
      reason: 'escaped_characters',
      hint: 'It matches once escape sequences such as \\n and \\t are turned into real line breaks and tabs: send the literal characters.',
      candidates: [],
    };
  }
  const trimmed = oldString.trim();
  if (trimmed !== oldString && (yield* occurs(text, trimmed, limits.meter))) {
    return {
      reason: 'surrounding_whitespace',
      hint: 'It matches once leading and trailing whitespace is removed: check the indentation and blank lines at its edges.',
      candidates: [],
    };
  }
  const candidates = yield* findCandidates(text, oldString, limits);
  if (candidates[0]?.difference === 'whitespace_only') {
    const c = candidates[0];
    return {
      reason: 'whitespace_only',
      hint: `Lines ${c.start_line}-${c.end_line} hold the same text with different indentation or spacing: copy their exact whitespace.`,
      candidates,
    };
  }
  const hint =
    candidates.length > 0
      ? `The closest text is at ${candidates.map((c) => `lines ${c.start_line}-${c.end_line} (similarity ${c.similarity})`).join(', ')}; it may be stale or mistyped.`
      : 'Nothing in the file resembles it closely.';
  return { reason: 'not_found', hint, candidates };
}
