import type { Paced, WorkMeter } from '@bough/workspace/internal';

/** What a line is compared by: itself, or a loosened form of it (trailing spaces cut, indentation cut, …). */
export type LineKey = (line: string) => string;

/** Most positions of a block's rarest line that {@link LineIndex.quick} checks without pausing. */
const QUICK_SLOTS = 64;

/** Called for each place a block occurs (0-based first line); return false to stop the scan. */
export type Visit = (at: number) => boolean;

/**
 * The lines of a file under one key, each turned into a small integer, with the positions of every distinct line.
 * A block of lines is then found by comparing integers, starting from the positions of its rarest line (or, when that
 * line is common in the range, by one linear pass over the range), so locating a hunk costs about the number of
 * places its rarest line occurs instead of the length of the file. Written here because no maintained library does
 * line-sequence search over a keyed index; the pieces (interning, KMP) are textbook.
 */
export class LineIndex {
  private readonly idOf = new Map<string, number>();
  private ids = new Int32Array(0);
  /** `order[first[id] .. first[id + 1])` are the lines with that id, ascending. */
  private first = new Int32Array(0);
  private order = new Int32Array(0);

  private constructor(readonly key: LineKey) {}

  /** Builds the index of `lines` under `key`, yielding now and then (a large file takes a while to key). */
  static *build(lines: readonly string[], key: LineKey, meter: WorkMeter): Paced<LineIndex> {
    const index = new LineIndex(key);
    const ids = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const keyed = key(lines[i]!);
      let id = index.idOf.get(keyed);
      if (id === undefined) {
        id = index.idOf.size;
        index.idOf.set(keyed, id);
      }
      ids[i] = id;
      meter.note(1);
      if (meter.due()) yield;
    }
    const first = new Int32Array(index.idOf.size + 1);
    for (const id of ids) first[id + 1]!++;
    for (let id = 0; id < index.idOf.size; id++) first[id + 1]! += first[id]!;
    const fill = first.slice(0, index.idOf.size);
    const order = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) order[fill[ids[i]!]!++] = i;
    meter.note(lines.length);
    index.ids = ids;
    index.first = first;
    index.order = order;
    return index;
  }

  /** The ids of a block's lines under this index's key, or undefined when one of them is nowhere in the file. */
  private idsOf(block: readonly string[]): number[] | undefined {
    // A plain array: one small typed array per hunk costs more to allocate than the whole lookup.
    const out: number[] = [];
    for (const line of block) {
      const id = this.idOf.get(this.key(line));
      if (id === undefined) return undefined;
      out.push(id);
    }
    return out;
  }

  /** First slot of `order` for `id` holding a line at or after `line`. */
  private lowerBound(id: number, line: number): number {
    let lo = this.first[id]!;
    let hi = this.first[id + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.order[mid]! < line) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private sameAt(pattern: readonly number[], at: number, meter: WorkMeter): boolean {
    for (let j = 0; j < pattern.length; j++) {
      meter.spend(1);
      if (this.ids[at + j] !== pattern[j]) return false;
    }
    return true;
  }

  /** The rarest line of a pattern (by position in it) and how many file lines have its id. */
  private rarest(pattern: readonly number[]): number {
    let best = 0;
    for (let j = 1; j < pattern.length; j++) {
      const id = pattern[j]!;
      if (this.first[id + 1]! - this.first[id]! < this.first[pattern[best]! + 1]! - this.first[pattern[best]!]!) {
        best = j;
      }
    }
    return best;
  }

  /**
   * Up to `max` places of `block` in `[from, to)`, ascending, when its rarest line has few enough positions there to
   * check them all at once (the usual case: a hunk of distinctive lines); undefined when the paced {@link scan} is
   * needed. No generator or callback is made, which matters for a patch of many small hunks.
   */
  quick(block: readonly string[], from: number, to: number, max: number, meter: WorkMeter): number[] | undefined {
    const k = block.length;
    if (k === 0 || to - from < k) return [];
    const pattern = this.idsOf(block);
    if (!pattern) return [];
    const j = this.rarest(pattern);
    const id = pattern[j]!;
    let slot = this.lowerBound(id, from + j);
    const end = this.lowerBound(id, to - k + j + 1);
    if (end - slot > QUICK_SLOTS) return undefined;
    const found: number[] = [];
    for (; slot < end && found.length < max; slot++) {
      meter.spend(1);
      const at = this.order[slot]! - j;
      if (this.sameAt(pattern, at, meter)) found.push(at);
    }
    return found;
  }

  /**
   * Visits, in ascending order, every place in `[from, to)` where `block` occurs whole under the key, until `visit`
   * returns false. Work is charged to `meter` (comparisons past its budget stop the search with `too_large`).
   */
  *scan(block: readonly string[], from: number, to: number, meter: WorkMeter, visit: Visit): Paced<void> {
    const k = block.length;
    if (k === 0 || to - from < k) return;
    const pattern = this.idsOf(block);
    if (!pattern) return;
    const j = this.rarest(pattern);
    const id = pattern[j]!;
    let slot = this.lowerBound(id, from + j);
    const end = this.lowerBound(id, to - k + j + 1);
    if ((end - slot) * Math.min(k, 8) > to - from + k) {
      yield* this.sweep(pattern, from, to, meter, visit);
      return;
    }
    for (; slot < end; slot++) {
      meter.spend(1);
      const at = this.order[slot]! - j;
      if (this.sameAt(pattern, at, meter) && !visit(at)) return;
      if (meter.due()) yield;
    }
  }

  /** One Knuth–Morris–Pratt pass over `[from, to)`: linear however often the pattern's lines repeat. */
  private *sweep(pattern: readonly number[], from: number, to: number, meter: WorkMeter, visit: Visit): Paced<void> {
    const k = pattern.length;
    const fail = new Int32Array(k);
    for (let i = 1, m = 0; i < k; i++) {
      while (m > 0 && pattern[i] !== pattern[m]) m = fail[m - 1]!;
      if (pattern[i] === pattern[m]) m++;
      fail[i] = m;
    }
    meter.spend(k);
    let m = 0;
    for (let i = from; i < to; i++) {
      meter.spend(1);
      const id = this.ids[i]!;
      while (m > 0 && id !== pattern[m]) m = fail[m - 1]!;
      if (id === pattern[m]) m++;
      if (m === k) {
        if (!visit(i - k + 1)) return;
        m = fail[m - 1]!;
      }
      if (meter.due()) yield;
    }
  }

  /** The last place at or before `latest` (first line) where `block` occurs whole, or -1; anchored on its rarest line. */
  *last(block: readonly string[], latest: number, meter: WorkMeter): Paced<number> {
    const pattern = this.idsOf(block);
    if (!pattern || latest < 0) return -1;
    const j = this.rarest(pattern);
    const id = pattern[j]!;
    const low = this.first[id]!;
    for (let slot = this.lowerBound(id, latest + j + 1) - 1; slot >= low; slot--) {
      meter.spend(1);
      const at = this.order[slot]! - j;
      if (at + pattern.length <= this.ids.length && at >= 0 && this.sameAt(pattern, at, meter)) return at;
      if (meter.due()) yield;
    }
    return -1;
  }
}

/** The indexes of one file's lines, built once per key on first use and shared by every search of one call. */
export class KeyedLines {
  private readonly built = new Map<LineKey, LineIndex>();

  constructor(
    readonly lines: readonly string[],
    readonly meter: WorkMeter,
  ) {}

  /** The index of the lines under `key`. */
  *index(key: LineKey): Paced<LineIndex> {
    let index = this.built.get(key);
    if (!index) {
      index = yield* LineIndex.build(this.lines, key, this.meter);
      this.built.set(key, index);
    }
    return index;
  }
}

/** A line compared as it is. */
export const EXACT_KEY: LineKey = (line) => line;
