/** Where a window read stopped and why, shared by the streaming and the in-memory windows. */
export interface WindowResult {
  rows: string[];
  /** 1-based line number of the first row (0 when no rows). */
  startLine: number;
  /** 1-based line number of the last row (0 when no rows). */
  endLine: number;
  /** 0-based offset to pass next time, when lines remain after the window. */
  nextOffset?: number;
  /** Whether the window stopped early because of the byte cap rather than the line limit. */
  cappedByBytes: boolean;
  /** Rows whose text was cut because it was too long. */
  cutLines: number;
}

/** Collects `<n>\t<text>` rows for lines `offset .. offset+limit-1`, honouring the per-line and per-response caps. */
export class RowBuilder {
  readonly rows: string[] = [];
  private bytes = 0;
  private stoppedAt: number | undefined;
  private cappedByBytes = false;
  private cutLines = 0;

  /**
   * `measured` false: the caller has shown the rows it will add cannot reach `maxOutputBytes` together, so their
   * sizes need not be counted (the answer is the same either way).
   */
  constructor(
    readonly offset: number,
    readonly limit: number,
    private readonly maxLineChars: number,
    private readonly maxOutputBytes: number,
    private readonly measured = true,
  ) {}

  /** True while line `index` (0-based) is before the window. */
  before(index: number): boolean {
    return index < this.offset;
  }

  /** True once the window is complete (line limit reached or byte cap hit). */
  get done(): boolean {
    return this.stoppedAt !== undefined || this.rows.length >= this.limit;
  }

  /** Adds line `index`; `droppedChars` counts characters already cut off before the text reached here. */
  add(index: number, text: string, droppedChars = 0): void {
    if (this.done || index < this.offset) return;
    let shown = text.endsWith('\r') ? text.slice(0, -1) : text;
    let dropped = droppedChars;
    if (shown.length > this.maxLineChars) {
      dropped += shown.length - this.maxLineChars;
      shown = shown.slice(0, this.maxLineChars);
    }
    if (dropped > 0) {
      this.cutLines++;
      shown += ` … [line cut: ${dropped} more characters]`;
    }
    const row = `${index + 1}\t${shown}`;
    if (!this.measured) {
      this.rows.push(row);
      return;
    }
    const size = Buffer.byteLength(row) + 1;
    if (this.rows.length > 0 && this.bytes + size > this.maxOutputBytes) {
      this.stoppedAt = index;
      this.cappedByBytes = true;
      return;
    }
    this.bytes += size;
    this.rows.push(row);
  }

  /** Summarises the window; `totalLines` when the whole input was seen, else `moreAfter` says if input remains. */
  finish(totalLines: number | undefined, moreAfter = false): WindowResult {
    const startLine = this.rows.length > 0 ? this.offset + 1 : 0;
    const endLine = this.rows.length > 0 ? this.offset + this.rows.length : 0;
    const nextIndex = this.stoppedAt ?? this.offset + this.rows.length;
    const more = this.cappedByBytes || (totalLines === undefined ? moreAfter : nextIndex < totalLines);
    return {
      rows: this.rows,
      startLine,
      endLine,
      ...(more && this.rows.length > 0 ? { nextOffset: nextIndex } : {}),
      cappedByBytes: this.cappedByBytes,
      cutLines: this.cutLines,
    };
  }
}
