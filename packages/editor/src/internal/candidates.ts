import type { Paced, WorkMeter } from '@bough/workspace/internal';
import { splitLines } from '@bough/workspace/internal';
import type { Candidate } from '../candidate.js';
import { comparableLengths, diceSimilarity } from './similarity.js';

/** Most copies of one line in old_string that still vote for windows (so voting stays linear in the file). */
const MAX_ANCHOR_COPIES = 4;

/** Knobs for {@link findCandidates}. */
export interface CandidateLimits {
  maxCandidates: number;
  minSimilarity: number;
  maxComparisons: number;
  maxChars: number;
  /** Paces the walk over the file (its steps are counted for pacing only: the comparisons have their own bound). */
  meter: WorkMeter;
}

/**
 * Ranks windows of the file with as many lines as `old_string`: windows sharing an exact trimmed line get votes,
 * and the most distinctive line of old_string is compared fuzzily with every file line while the budget lasts.
 * Only the best few dozen windows are scored in full, so the work stays bounded on huge files.
 */
export function* findCandidates(text: string, oldString: string, limits: CandidateLimits): Paced<Candidate[]> {
  const wanted = splitLines(oldString).map((line) => line.trim());
  if (wanted.length === 0 || wanted.every((line) => line === '')) return [];
  const starts = lineStarts(text);
  const lineCount = starts.length;
  const line = (i: number): string => text.slice(starts[i]!, i + 1 < lineCount ? starts[i + 1]! - 1 : text.length);
  const k = wanted.length;
  const anchors = new Map<string, number[]>();
  wanted.forEach((value, j) => {
    if (value.length >= 3) anchors.set(value, [...(anchors.get(value) ?? []), j]);
  });
  // A line old_string repeats many times says little about where it goes, and voting for each of its copies at every
  // file line that has it costs file lines times copies: only lines it holds a few times vote.
  for (const [value, places] of anchors) if (places.length > MAX_ANCHOR_COPIES) anchors.delete(value);
  const pivot = wanted.reduce((best, value, j) => (value.length > wanted[best]!.length ? j : best), 0);
  const votes = new Map<number, number>();
  const fuzzy: Array<[number, number]> = [];
  let budget = limits.maxComparisons; // fuzzy line scan
  let scoreBudget = limits.maxComparisons; // full window scoring
  for (let i = 0; i < lineCount; i++) {
    limits.meter.note(1);
    if (limits.meter.due()) yield;
    const trimmed = line(i).trim();
    for (const j of anchors.get(trimmed) ?? []) votes.set(i - j, (votes.get(i - j) ?? 0) + 1);
    if (budget > 0 && comparableLengths(trimmed.length, wanted[pivot]!.length)) {
      budget--;
      const score = diceSimilarity(trimmed, wanted[pivot]!);
      if (score >= limits.minSimilarity) fuzzy.push([i - pivot, score]);
    }
  }
  const shortlist = new Set<number>([
    ...[...votes.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, 24)
      .map(([s]) => s),
    ...fuzzy
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, 24)
      .map(([s]) => s),
  ]);
  const scored: Array<{ start: number; score: number; whitespaceOnly: boolean }> = [];
  for (const rawStart of shortlist) {
    if (scoreBudget <= 0) break;
    scoreBudget -= k;
    limits.meter.note(k);
    if (limits.meter.due()) yield;
    const start = Math.max(0, Math.min(rawStart, lineCount - 1));
    let total = 0;
    let whitespaceOnly = true;
    for (let j = 0; j < k; j++) {
      const have = start + j < lineCount ? line(start + j).trim() : undefined;
      if (have === undefined) {
        whitespaceOnly = false;
        continue;
      }
      total += diceSimilarity(have, wanted[j]!);
      if (have.replace(/\s+/g, ' ') !== wanted[j]!.replace(/\s+/g, ' ')) whitespaceOnly = false;
    }
    scored.push({ start, score: total / k, whitespaceOnly });
  }
  return finish(scored, limits, k, lineCount, line);
}

function finish(
  scored: Array<{ start: number; score: number; whitespaceOnly: boolean }>,
  limits: CandidateLimits,
  k: number,
  lineCount: number,
  line: (i: number) => string,
): Candidate[] {
  const chosen: Candidate[] = [];
  const byScore = scored
    .filter((entry) => entry.score >= limits.minSimilarity || entry.whitespaceOnly)
    .sort((a, b) => b.score - a.score || a.start - b.start);
  for (const entry of byScore) {
    if (chosen.length >= limits.maxCandidates) break;
    const end = Math.min(entry.start + k, lineCount);
    if (chosen.some((c) => entry.start < c.end_line && end > c.start_line - 1)) continue;
    let body = '';
    for (let i = entry.start; i < end; i++) body += `${line(i)}\n`;
    if (body.length > limits.maxChars) body = `${body.slice(0, limits.maxChars)}… [cut]`;
    chosen.push({
      start_line: entry.start + 1,
      end_line: end,
      similarity: Math.round(entry.score * 100) / 100,
      difference: entry.whitespaceOnly ? 'whitespace_only' : 'content',
      text: body,
    });
  }
  return chosen;
}

function lineStarts(text: string): Uint32Array {
  let count = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) count++;
  const starts = new Uint32Array(count);
  let k = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) starts[k++] = i + 1;
  return starts;
}
