import type { Paced, WorkMeter } from '@bough/workspace/internal';

/**
 * The lines of a patch as offsets into its text, each line cut out only when it is looked at. A multi-megabyte patch
 * has hundreds of thousands of lines; holding each as its own string (as `split` would) costs more in garbage
 * collection than reading them, and a caller that only wants the file headers never keeps most of them. Our own code
 * because no library offers a lazily sliced line view.
 */
export class PatchLines {
  private lastIndex = -1;
  private lastLine = '';

  private constructor(
    private readonly text: string,
    /** Start offsets; a CRLF line's end excludes its CR. */
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    private readonly crs: Uint8Array,
    private readonly first: number,
    /** How many lines this view holds. */
    readonly length: number,
  ) {}

  /** Splits `text` at LF (the CR of a CRLF set aside), without the empty piece after a final line break. */
  static *split(text: string, meter: WorkMeter): Paced<PatchLines> {
    let size = 1024;
    let starts = new Int32Array(size);
    let ends = new Int32Array(size);
    let crs = new Uint8Array(size);
    let count = 0;
    for (let at = 0; at < text.length; ) {
      const next = text.indexOf('\n', at);
      const end = next < 0 ? text.length : next;
      const withCr = end > at && text.charCodeAt(end - 1) === 13;
      if (count === size) {
        size *= 2;
        starts = grow(starts, new Int32Array(size));
        ends = grow(ends, new Int32Array(size));
        crs = grow(crs, new Uint8Array(size));
      }
      starts[count] = at;
      ends[count] = withCr ? end - 1 : end;
      crs[count] = withCr ? 1 : 0;
      count++;
      at = end + 1;
      meter.note(1);
      if (meter.due()) yield;
    }
    return new PatchLines(text, starts, ends, crs, 0, count);
  }

  /** Line `i` of this view without its line break, or undefined past either end. */
  at(i: number): string | undefined {
    if (i < 0 || i >= this.length) return undefined;
    if (i !== this.lastIndex) {
      const k = this.first + i;
      this.lastLine = this.text.slice(this.starts[k]!, this.ends[k]!);
      this.lastIndex = i;
    }
    return this.lastLine;
  }

  /** The first UTF-16 code unit of line `i` (NaN for an empty line or past either end), without cutting the line out. */
  firstCode(i: number): number {
    if (i < 0 || i >= this.length) return Number.NaN;
    const k = this.first + i;
    return this.starts[k]! < this.ends[k]! ? this.text.charCodeAt(this.starts[k]!) : Number.NaN;
  }

  /** Whether line `i` ended in CRLF. */
  crAt(i: number): boolean {
    return i >= 0 && i < this.length && this.crs[this.first + i] === 1;
  }

  /** Lines `from` (inclusive) to `to` (exclusive) of this view, sharing its offsets. */
  window(from: number, to: number): PatchLines {
    const start = Math.min(Math.max(from, 0), this.length);
    const end = Math.max(Math.min(to, this.length), start);
    return new PatchLines(this.text, this.starts, this.ends, this.crs, this.first + start, end - start);
  }
}

function grow<T extends Int32Array | Uint8Array>(old: T, bigger: T): T {
  bigger.set(old);
  return bigger;
}
