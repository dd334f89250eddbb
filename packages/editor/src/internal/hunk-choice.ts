import type { Paced } from '@bough/workspace/internal';
import type { KeyedLines, LineIndex } from './line-index.js';
import { EXACT_KEY } from './line-index.js';
import { LOOSEST_KEY } from './loose-keys.js';
import type { PatchHunk } from './patch-parse.js';

/**
 * When an apply_patch hunk's lines occur more than once after the hunk before it, Codex's applier takes the first
 * place; so do we, but only when that choice is provably the one any correct application makes:
 *
 * 1. **Order.** Hunks apply in order without overlapping, so a place is possible only if every later hunk still fits
 *    after it. Walking the hunks from the last, each is put at its latest possible place (under the loosest key, so
 *    the bound is never too tight); if the second place of this hunk lies past its latest possible start, the first is
 *    the only one.
 * 2. **Same file.** Every possible place gives the same text (deleting one of several identical blank lines, adding a
 *    line inside a run of equal lines), and the next hunk cannot start before the last of them, so what follows is
 *    located the same way whichever is chosen.
 *
 * Anything else is refused with the places, as before: taking the first of places that differ is a guess.
 */
export class HunkChoice {
  private latest: number[] | undefined;

  constructor(
    private readonly keyed: KeyedLines,
    private readonly hunks: readonly PatchHunk[],
    private readonly fuzzy: boolean,
  ) {}

  private *loosest(): Paced<LineIndex> {
    return yield* this.keyed.index(this.fuzzy ? LOOSEST_KEY : EXACT_KEY);
  }

  /** Latest possible first line of every hunk given the hunks after it (an over-estimate where unknown). */
  private *latestStarts(): Paced<number[]> {
    if (this.latest) return this.latest;
    const index = yield* this.loosest();
    const n = this.keyed.lines.length;
    const out = new Array<number>(this.hunks.length);
    let bound = n;
    for (let i = this.hunks.length - 1; i >= 0; i--) {
      const old = shortest(this.hunks[i]!.oldLines);
      if (old.length === 0) {
        out[i] = bound;
        continue;
      }
      const at = this.hunks[i]!.eof ? -1 : yield* index.last(old, bound - old.length, this.keyed.meter);
      out[i] = at >= 0 ? at : bound - old.length;
      bound = out[i]!;
    }
    this.latest = out;
    return out;
  }

  /** Whether the first of `places` (ascending, at least two, every exact place from the cursor on) is provably right. */
  *firstIsForced(
    hunkIndex: number,
    old: readonly string[],
    fresh: readonly string[],
    places: number[],
  ): Paced<boolean> {
    const latest = (yield* this.latestStarts())[hunkIndex]!;
    if (places[1]! > latest) return true;
    const exact = yield* this.keyed.index(EXACT_KEY);
    let previous = -1;
    let same = true;
    yield* exact.scan(old, places[0]!, latest + old.length, this.keyed.meter, (at) => {
      same = previous < 0 || this.sameText(previous, at, old.length, fresh);
      previous = at;
      return same;
    });
    if (!same) return false;
    const next = this.hunks[hunkIndex + 1];
    if (next === undefined) return true;
    // An insertion without an '@@' line goes at the end of the file wherever this hunk is; anything with one is not
    // followed here.
    if (next.oldLines.length === 0 || next.context !== undefined)
      return next.oldLines.length === 0 && next.context === undefined;
    const lastEnd = previous + old.length;
    let nextAt = -1;
    const index = yield* this.loosest();
    yield* index.scan(
      shortest(next.oldLines),
      places[0]! + old.length,
      this.keyed.lines.length,
      this.keyed.meter,
      (at) => {
        nextAt = at;
        return false;
      },
    );
    return nextAt < 0 || nextAt >= lastEnd;
  }

  /** Whether replacing `k` lines by `fresh` at `p` or at `q` (p < q) gives the same lines. */
  private sameText(p: number, q: number, k: number, fresh: readonly string[]): boolean {
    const { lines, meter } = this.keyed;
    const gap = q - p;
    const m = fresh.length;
    for (let t = 0; t < gap + m; t++) {
      meter.spend(1);
      const left = t < gap ? lines[p + t] : fresh[t - gap];
      const right = t < m ? fresh[t] : lines[p + k + t - m];
      if (left !== right) return false;
    }
    return true;
  }
}

/** A hunk's old lines without a closing blank line (the applier may drop it), so the bound covers both forms. */
function shortest(old: readonly string[]): readonly string[] {
  return old.length > 1 && old[old.length - 1] === '' ? old.slice(0, -1) : old;
}
