import { LineCounter, lineEndAfter, lineStart, linesBack, linesForward } from './lines.js';

/** One replacement: `[oldStart, oldEnd)` of the old text became `[newStart, newEnd)` of the new text. */
export interface Change {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** Knobs for {@link unifiedDiff}. */
export interface DiffLimits {
  context: number;
  maxLines: number;
  maxLineChars: number;
}

interface Region {
  oldA: number;
  oldB: number;
  newA: number;
  newB: number;
}

const isLineEnd = (text: string, at: number): boolean => at === text.length || text[at - 1] === '\n';

/**
 * Groups ascending changes into whole-line regions; changes sharing a line end up in the same region. Lazily: a diff
 * cut after a few hundred lines looks at the first regions only, however many changes there are.
 */
function* regions(oldText: string, newText: string, changes: readonly Change[]): Generator<Region, void, void> {
  let i = 0;
  while (i < changes.length) {
    const first = changes[i]!;
    const oldA = lineStart(oldText, first.oldStart);
    const region: Region = { oldA, oldB: 0, newA: first.newStart - (first.oldStart - oldA), newB: 0 };
    for (;;) {
      const last = changes[i]!;
      const next = changes[i + 1];
      let oldB = lineEndAfter(oldText, last.oldEnd);
      let newB = last.newEnd + (oldB - last.oldEnd);
      // The text after a change is shared by both sides up to the next change, so both ends move together.
      while (!(next && next.oldStart < oldB) && !(isLineEnd(oldText, oldB) && isLineEnd(newText, newB))) {
        const step = lineEndAfter(oldText, oldB + 1) - oldB;
        if (step <= 0) break;
        oldB += step;
        newB += step;
      }
      if (next && next.oldStart < oldB) {
        i++;
        continue;
      }
      region.oldB = oldB;
      region.newB = newB;
      break;
    }
    yield region;
    i++;
  }
}

/**
 * Appends the lines of `text[from, to)` with `mark`, each cut at `maxChars`; stops once `lines` is past `cap` (the
 * diff is cut there anyway, so a region of thousands of lines costs no more than the lines shown).
 */
function body(text: string, from: number, to: number, mark: string, lines: string[], maxChars: number, cap: number) {
  let at = from;
  while (at < to && lines.length <= cap) {
    const next = text.indexOf('\n', at);
    const end = next < 0 || next >= to ? to : next;
    const part = text.slice(at, Math.min(end, at + maxChars + 1));
    lines.push(mark + (end - at > maxChars ? `${part.slice(0, maxChars)}… [line cut]` : part));
    at = end + 1;
  }
  if (at >= to && to > from && to === text.length && text[to - 1] !== '\n') lines.push('\\ No newline at end of file');
}

function countLinesIn(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return to > from && text[to - 1] !== '\n' ? n + 1 : n;
}

/**
 * A unified diff (3 lines of context by default) of the given changes, cut at `maxLines` with a marker. When the texts
 * are an excerpt of whole lines, `linesBefore` is the number of lines above it, so hunk headers keep file line numbers.
 */
export function unifiedDiff(
  oldText: string,
  newText: string,
  changes: readonly Change[],
  limits: DiffLimits,
  linesBefore = 0,
): { diff: string; truncated: boolean } {
  const lines: string[] = [];
  const oldLines = new LineCounter(oldText);
  const newLines = new LineCounter(newText);
  const all = regions(oldText, newText, changes);
  let next = all.next();
  while (!next.done && lines.length < limits.maxLines) {
    const group = [next.value];
    let ctxB = linesForward(oldText, group[0]!.oldB, limits.context);
    for (
      next = all.next();
      !next.done && linesBack(oldText, next.value.oldA, limits.context) <= ctxB;
      next = all.next()
    ) {
      group.push(next.value);
      ctxB = linesForward(oldText, next.value.oldB, limits.context);
      if (group.length > limits.maxLines) {
        next = all.next(); // this group alone is past the cut: the diff ends inside it
        break;
      }
    }
    const head = group[0]!;
    const tail = group[group.length - 1]!;
    const ctxA = linesBack(oldText, head.oldA, limits.context);
    const newCtxA = head.newA - (head.oldA - ctxA);
    const newCtxB = tail.newB + (ctxB - tail.oldB);
    const oldCount = countLinesIn(oldText, ctxA, ctxB);
    const newCount = countLinesIn(newText, newCtxA, newCtxB);
    const oldLine = linesBefore + (oldCount === 0 ? oldLines.lineAt(ctxA) - 1 : oldLines.lineAt(ctxA));
    const newLine = linesBefore + (newCount === 0 ? newLines.lineAt(newCtxA) - 1 : newLines.lineAt(newCtxA));
    lines.push(`@@ -${oldLine},${oldCount} +${newLine},${newCount} @@`);
    body(oldText, ctxA, head.oldA, ' ', lines, limits.maxLineChars, limits.maxLines);
    group.forEach((region, k) => {
      body(oldText, region.oldA, region.oldB, '-', lines, limits.maxLineChars, limits.maxLines);
      body(newText, region.newA, region.newB, '+', lines, limits.maxLineChars, limits.maxLines);
      const following = group[k + 1];
      if (following) body(oldText, region.oldB, following.oldA, ' ', lines, limits.maxLineChars, limits.maxLines);
    });
    body(oldText, tail.oldB, ctxB, ' ', lines, limits.maxLineChars, limits.maxLines);
  }
  const truncated = lines.length > limits.maxLines || !next.done;
  const shown = lines.slice(0, limits.maxLines);
  if (truncated) shown.push(`… diff cut after ${limits.maxLines} lines; read the file to see the rest.`);
  return { diff: shown.join('\n'), truncated };
}
