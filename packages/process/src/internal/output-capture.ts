// Bounded capture of one output stream: the first half of the budget, the last half, and a count of what fell between.

/** What one stream produced, ready for the result. */
export interface CapturedOutput {
  text: string;
  truncated: boolean;
  totalBytes: number;
  binary: boolean;
}

/** Keeps at most `maxBytes` of a stream in memory however much the child writes. */
export class OutputCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;
  private sawNul = false;

  constructor(
    maxBytes: number,
    private readonly label: string,
  ) {
    const limit = Math.max(0, Math.floor(maxBytes));
    this.headLimit = Math.floor(limit / 2);
    this.tailLimit = limit - this.headLimit;
  }

  /** Bytes currently held in memory (for tests and diagnostics). */
  get retainedBytes(): number {
    return this.headBytes + this.tailBytes;
  }

  /** Accepts one chunk; memory stays at most the budget plus one chunk. */
  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (!this.sawNul && chunk.includes(0)) this.sawNul = true;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(this.headLimit - this.headBytes, rest.length);
      this.head.push(Buffer.from(rest.subarray(0, take)));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.tailLimit === 0) return;
    this.tail.push(Buffer.from(rest));
    this.tailBytes += rest.length;
    while (this.tail.length > 1 && this.tailBytes - (this.tail[0] as Buffer).length >= this.tailLimit) {
      this.tailBytes -= (this.tail.shift() as Buffer).length;
    }
  }

  /** Decodes what was kept; a cut never lands inside a UTF-8 character and is marked with the bytes left out. */
  finish(): CapturedOutput {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    if (tail.length > this.tailLimit) tail = tail.subarray(tail.length - this.tailLimit);
    const kept = head.length + tail.length;
    const truncated = kept < this.total;
    if (!truncated) {
      return { text: decode(Buffer.concat([head, tail])), truncated, totalBytes: this.total, binary: this.sawNul };
    }
    const headCut = head.subarray(0, completeCharEnd(head));
    const tailCut = tail.subarray(leadingContinuationBytes(tail));
    const omitted = this.total - headCut.length - tailCut.length;
    const marker = `\n[... ${omitted} of ${this.total} bytes of ${this.label} left out here; only the first and last part are kept ...]\n`;
    return {
      text: decode(headCut) + marker + decode(tailCut),
      truncated,
      totalBytes: this.total,
      binary: this.sawNul,
    };
  }
}

function decode(bytes: Buffer): string {
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes);
}

/** Length of `bytes` without a trailing character whose bytes are incomplete. */
export function completeCharEnd(bytes: Uint8Array): number {
  const length = bytes.length;
  for (let back = 1; back <= Math.min(4, length); back++) {
    const byte = bytes[length - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? length - back : length;
  }
  return length;
}

/** Number of continuation bytes at the start of `bytes` (at most 3), i.e. the end of a character cut in half. */
export function leadingContinuationBytes(bytes: Uint8Array): number {
  let count = 0;
  while (count < 3 && count < bytes.length && ((bytes[count] as number) & 0xc0) === 0x80) count++;
  return count;
}
