// Bounded capture of one output stream: the first half of the budget, the last half, and a count of what fell between.

/** What one stream produced, ready for the result. */
export interface CapturedOutput {
  text: string;
  truncated: boolean;
  totalBytes: number;
  binary: boolean;
}

/**
 * Keeps at most `maxBytes` of a stream in memory however much the child writes. Once the head is full, the newest
 * chunk is only referenced, not copied: when the next chunk arrives, just the part of the previous one that can still
 * end up in the tail (none at all when the new chunk alone fills the tail budget) is copied into a fixed ring. So a
 * flood of full pipe reads costs no copies and no garbage for the discarded middle, and memory stays at most the
 * budget plus one chunk. Chunks handed to {@link OutputCapture.push} must therefore not be modified afterwards.
 * Binary detection still looks at every byte (a `memchr` per chunk, stopping for good at the first NUL), so
 * `binary` keeps meaning "the stream contained a NUL" even when the NUL fell in the part that was left out.
 */
export class OutputCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  /** Copies of the bytes after the head while they still fit in the tail budget (before the ring is needed). */
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Fixed ring of the newest `tailLimit` bytes, created once the tail budget overflows; `ringPos` is the oldest. */
  private ring: Buffer | undefined;
  private ringPos = 0;
  /** The newest tail bytes, referenced until the next chunk shows how much of them the tail still needs. */
  private pending: Buffer | undefined;
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
    return this.headBytes + (this.ring ? this.ring.length : this.tailBytes) + (this.pending?.length ?? 0);
  }

  /** Accepts one chunk (which must not change afterwards); memory stays at most the budget plus one chunk. */
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
    if (this.ring) {
      this.settlePending(rest.length);
      this.pending = rest;
      return;
    }
    if (this.tailBytes + rest.length <= this.tailLimit) {
      this.tail.push(Buffer.from(rest));
      this.tailBytes += rest.length;
      return;
    }
    // The tail budget overflows for the first time: move to the ring, seeded with the newest bytes kept so far.
    this.ring = Buffer.allocUnsafe(this.tailLimit);
    const pending = this.tail;
    this.tail = [];
    this.tailBytes = 0;
    for (const part of pending) this.toRing(part);
    this.pending = rest;
  }

  /** Copies into the ring the end of the pending bytes that `following` newer bytes do not push out of the tail. */
  private settlePending(following: number): void {
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    const keep = this.tailLimit - following;
    if (keep > 0) this.toRing(keep < pending.length ? pending.subarray(pending.length - keep) : pending);
  }

  /** Writes `bytes` at the ring's oldest position (wrapping); only the last `tailLimit` of them can matter. */
  private toRing(bytes: Buffer): void {
    const ring = this.ring as Buffer;
    const size = ring.length;
    let src = bytes.length > size ? bytes.subarray(bytes.length - size) : bytes;
    while (src.length > 0) {
      const n = Math.min(size - this.ringPos, src.length);
      src.copy(ring, this.ringPos, 0, n);
      this.ringPos = (this.ringPos + n) % size;
      src = src.subarray(n);
    }
  }

  /** The kept tail in stream order. */
  private tailBytesInOrder(): Buffer {
    if (!this.ring) return Buffer.concat(this.tail);
    this.settlePending(0);
    return Buffer.concat([this.ring.subarray(this.ringPos), this.ring.subarray(0, this.ringPos)]);
  }

  /** Decodes what was kept; a cut never lands inside a UTF-8 character and is marked with the bytes left out. */
  finish(): CapturedOutput {
    const head = Buffer.concat(this.head);
    const tail = this.tailBytesInOrder();
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

/** One decoder for every call: without `stream: true` a decode keeps no state between calls. */
const UTF8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

function decode(bytes: Buffer): string {
  return bytes.length === 0 ? '' : UTF8.decode(bytes);
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
