import type { Change, DiffLimits } from '@bough/workspace/internal';
import {
  drive,
  type FileDiff,
  lineStart,
  type Paced,
  pacedLineChanges,
  WorkMeter,
  withHeader,
} from '@bough/workspace/internal';

const boundary = (text: string, at: number) => at === 0 || at === text.length || text[at - 1] === '\n';

/**
 * Widens ascending changes to whole lines on both sides (the text around a change is the same in both, so both ends
 * move together) and merges the ones that then share a line.
 */
function* wholeLines(before: string, after: string, changes: readonly Change[], meter: WorkMeter): Paced<Change[]> {
  const out: Change[] = [];
  for (const c of changes) {
    const oldA = lineStart(before, c.oldStart);
    const last = out[out.length - 1];
    const group =
      last !== undefined && oldA < last.oldEnd
        ? last
        : { oldStart: oldA, oldEnd: 0, newStart: c.newStart - (c.oldStart - oldA), newEnd: 0 };
    if (group !== last) out.push(group);
    // A change inside the group's last line still ends where the group does (same text after it on both sides).
    let oldB = Math.max(c.oldEnd, group.oldEnd);
    let newB = c.newEnd + (oldB - c.oldEnd);
    while (!(boundary(before, oldB) && boundary(after, newB))) {
      const next = before.indexOf('\n', oldB);
      const step = (next < 0 ? before.length : next + 1) - oldB;
      if (step <= 0) break;
      oldB += step;
      newB += step;
    }
    group.oldEnd = oldB;
    group.newEnd = newB;
    meter.note(1);
    if (meter.due()) yield;
  }
  return out;
}

function* refine(before: string, after: string, changes: readonly Change[], meter: WorkMeter) {
  const lines: Change[] = [];
  let added = 0;
  let removed = 0;
  for (const g of yield* wholeLines(before, after, changes, meter)) {
    const one = oneLine(before, after, g);
    if (one !== undefined) {
      // One line against one line (or nothing): no line diff needed, and no garbage for thousands of small hunks.
      if (one.removed + one.added > 0) lines.push(g);
      removed += one.removed;
      added += one.added;
      meter.note(1);
      if (meter.due()) yield;
      continue;
    }
    const part = yield* pacedLineChanges(before.slice(g.oldStart, g.oldEnd), after.slice(g.newStart, g.newEnd), meter);
    for (const c of part.changes) {
      lines.push({
        oldStart: c.oldStart + g.oldStart,
        oldEnd: c.oldEnd + g.oldStart,
        newStart: c.newStart + g.newStart,
        newEnd: c.newEnd + g.newStart,
      });
    }
    added += part.added;
    removed += part.removed;
  }
  return { changes: lines, added, removed };
}

/** Lines in `text[from, to)` when there is at most one (a whole-line range: only its last break can end it). */
function atMostOneLine(text: string, from: number, to: number): number | undefined {
  if (to === from) return 0;
  const next = text.indexOf('\n', from);
  return next < 0 || next >= to - 1 ? 1 : undefined;
}

/** The counts of a group that is at most one line on each side, or undefined when either side has more. */
function oneLine(before: string, after: string, g: Change): { removed: number; added: number } | undefined {
  const old = atMostOneLine(before, g.oldStart, g.oldEnd);
  const fresh = atMostOneLine(after, g.newStart, g.newEnd);
  if (old === undefined || fresh === undefined) return undefined;
  const same =
    g.oldEnd - g.oldStart === g.newEnd - g.newStart && before.startsWith(after.slice(g.newStart, g.newEnd), g.oldStart);
  return same ? { removed: 0, added: 0 } : { removed: old, added: fresh };
}

/**
 * The diff of `before` and `after` (both LF-normalized) that returns to the event loop every few milliseconds while it
 * compares lines, so a large patch's response diff does not hold up other calls. When the `changes` are already known
 * (the replacements a patch made, in offsets of both texts) only the changed lines are compared, each group on its
 * own; otherwise the whole texts are. It runs after the change is written, so it is never cancelled.
 */
export async function pacedFileDiff(
  before: string,
  after: string,
  names: { old: string; new: string },
  limits: DiffLimits,
  changes?: readonly Change[],
): Promise<FileDiff> {
  const meter = new WorkMeter(Number.POSITIVE_INFINITY);
  const search = changes ? refine(before, after, changes, meter) : pacedLineChanges(before, after, meter);
  const driven = await drive(search, meter);
  // Without a signal or a finite budget the search always runs to its end.
  if (!driven.ok) throw new Error('an unbounded, uncancellable diff stopped early');
  return withHeader(before, after, names, limits, driven.value);
}
