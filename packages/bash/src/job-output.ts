// The kept output of one stream of a background job, addressed by absolute byte offsets.

/** What one read of a job stream returns. */
export interface StreamRead {
  /** The new text (UTF-8, never cut inside a character unless the job has ended). */
  readonly text: string;
  /** The offset to pass as `since` next time. */
  readonly next: number;
  /** Bytes between the requested offset and the oldest kept byte that were dropped before they could be read. */
  readonly dropped: number;
  /** Bytes left out of the middle of this read because more arrived than `maxBytes`. */
  readonly omitted: number;
}

/**
 * Keeps the newest `capacity` bytes of a stream. Offsets count every byte the job ever wrote, so a reader can ask
 * "everything since offset N" and learn exactly how much it missed when older bytes were dropped.
 */
export class JobStream {
  readonly #chunks: Buffer[] = [];
  #start = 0;
  #end = 0;
  readonly #capacity: number;
  readonly #label: string;

  constructor(capacity: number, label: string) {
    this.#capacity = Math.max(1, Math.floor(capacity));
    this.#label = label;
  }

  /** Total bytes the stream has produced (the offset of the next byte). */
  get end(): number {
    return this.#end;
  }

  /** Offset of the oldest byte still kept. */
  get start(): number {
    return this.#start;
  }

  /** Appends a chunk (owned by the stream from now on) and drops the oldest bytes beyond the capacity. */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.#chunks.push(chunk.length > this.#capacity ? chunk.subarray(chunk.length - this.#capacity) : chunk);
    this.#end += chunk.length;
    let excess = this.#end - this.#start - this.#capacity;
    if (chunk.length > this.#capacity) {
      // Only the newest `capacity` bytes of this chunk were stored; everything before them is gone.
      this.#chunks.splice(0, this.#chunks.length - 1);
      this.#start = this.#end - this.#capacity;
      return;
    }
    while (excess > 0) {
      const first = this.#chunks[0] as Buffer;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#start += first.length;
        excess -= first.length;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#start += excess;
        excess = 0;
      }
    }
  }

  /** The bytes since `since` (clamped to what is kept), head and tail when more than `maxBytes` arrived. */
  read(since: number, maxBytes: number, ended: boolean): StreamRead {
    const wanted = Math.min(Math.max(0, Math.floor(since)), this.#end);
    const from = Math.max(wanted, this.#start);
    const dropped = from - wanted;
    let bytes = this.#slice(from);
    let skip = 0;
    if (dropped > 0) {
      skip = leadingContinuationBytes(bytes);
      bytes = bytes.subarray(skip);
    }
    const budget = Math.max(2, Math.floor(maxBytes));
    let text: string;
    let next: number;
    let omitted = 0;
    if (bytes.length > budget) {
      const headBytes = bytes.subarray(0, completeCharEnd(bytes.subarray(0, Math.floor(budget / 2))));
      let tailBytes = bytes.subarray(bytes.length - (budget - Math.floor(budget / 2)));
      tailBytes = tailBytes.subarray(leadingContinuationBytes(tailBytes));
      const tailEnd = ended ? tailBytes.length : completeCharEnd(tailBytes);
      omitted = bytes.length - headBytes.length - tailBytes.length;
      text = `${decode(headBytes)}\n[... ${omitted} bytes of ${this.#label} left out here; only the first and last part of the new output are shown ...]\n${decode(tailBytes.subarray(0, tailEnd))}`;
      next = this.#end - (tailBytes.length - tailEnd);
    } else {
      const cut = ended ? bytes.length : completeCharEnd(bytes);
      text = decode(bytes.subarray(0, cut));
      next = from + skip + cut;
    }
    if (dropped > 0) {
      text = `[... ${dropped + skip} older bytes of ${this.#label} were dropped before they were read; only the newest ${this.#capacity} bytes are kept ...]\n${text}`;
    }
    return { text, next, dropped: dropped + skip, omitted };
  }

  #slice(from: number): Buffer {
    const parts: Buffer[] = [];
    let offset = this.#start;
    for (const chunk of this.#chunks) {
      const chunkEnd = offset + chunk.length;
      if (chunkEnd > from) parts.push(offset >= from ? chunk : chunk.subarray(from - offset));
      offset = chunkEnd;
    }
    return Buffer.concat(parts);
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

function decode(bytes: Uint8Array): string {
  return bytes.length === 0 ? '' : UTF8.decode(bytes);
}

/** Length of `bytes` without a trailing character whose bytes are incomplete. */
function completeCharEnd(bytes: Uint8Array): number {
  const length = bytes.length;
  for (let back = 1; back <= Math.min(4, length); back++) {
    const byte = bytes[length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? length - back : length;
  }
  return length;
}

/** Continuation bytes at the start of `bytes` (at most 3): the end of a character whose start was dropped. */
function leadingContinuationBytes(bytes: Uint8Array): number {
  let count = 0;
  while (count < 3 && count < bytes.length && ((bytes[count] as number) & 0xc0) === 0x80) count++;
  return count;
}
