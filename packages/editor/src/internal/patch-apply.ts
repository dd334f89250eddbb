import { drive, type Paced, WorkMeter } from '@bough/workspace/internal';
import { DEFAULT_EDITOR_LIMITS, type EditorLimits } from '../limits.js';
import type { Replacement } from './apply-edit.js';
import { HunkChoice } from './hunk-choice.js';
import { contextLine, type Failed, type HunkStrategy, type Located, locate, type Search } from './hunk-locate.js';
import { KeyedLines } from './line-index.js';
import type { PatchHunk } from './patch-parse.js';

export type { HunkStrategy } from './hunk-locate.js';

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
  return { ok: true, ...(yield* inFileOrder(placed, meter)) };
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
function* inFileOrder(placed: Placed[], meter: WorkMeter): Paced<{ replacements: Replacement[]; hunks: HunkReport[] }> {
  // Hunks are placed in order, so only an end-of-file insertion is ever out of place: the sort is about linear.
  const sorted = placed.sort((a, b) => a.start - b.start || a.hunk - b.hunk);
  const hunks = new Array<HunkReport>(sorted.length);
  const replacements = new Array<Replacement>(sorted.length);
  let delta = 0;
  for (const [k, p] of sorted.entries()) {
    const first = p.at + delta + 1;
    hunks[p.hunk] = { strategy: p.strategy, start_line: first, end_line: first + Math.max(p.fresh, 1) - 1 };
    replacements[k] = { start: p.start, end: p.end, text: p.body };
    delta += p.fresh - p.old;
    meter.note(1);
    if (meter.due()) yield;
  }
  return { replacements, hunks };
}
