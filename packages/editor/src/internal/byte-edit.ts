import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { countLineFeedsIn } from '@bough/workspace/internal';
import { type ByteAllowance, byteAllowance, findBytes } from './byte-find.js';
import { firstLoneSurrogate, type TextEncodingName } from './text-codec.js';

/**
 * A single replacement worked out on the raw bytes. It is only produced when the text path would reach exactly the
 * same result: UTF-8 (with or without BOM) that is valid, no CR anywhere in the file (so no line ending needs mapping),
 * a well-formed `old_string`, and exactly one occurrence of it.
 */
export interface ByteEdit {
  encoding: Extract<TextEncodingName, 'utf-8' | 'utf-8-bom'>;
  bomBytes: number;
  /** Byte range of the one occurrence. */
  start: number;
  end: number;
  /** Line feeds before the occurrence (after the BOM): its line number is one more. */
  lineFeedsBefore: number;
  /** `old_string` and `new_string` with CRLF folded to LF, as the text path uses them. */
  oldText: string;
  newText: string;
  replacement: Buffer;
}

const CR = 13;
const LF = 10;

/** End of the longest prefix of `bytes[from, length)` that cannot stop inside a UTF-8 sequence still being read. */
export function sequenceBoundary(bytes: Buffer, from: number, length: number): number {
  let end = length;
  for (let back = 0; back < 3 && end > from && (bytes[end - 1]! & 0xc0) === 0x80; back++) end--;
  // Cut before a lead byte whose sequence may still be incomplete; anything else is either whole or already invalid.
  return end > from && bytes[end - 1]! >= 0xc0 ? end - 1 : length;
}

/**
 * Checks, as a file is being read, whether {@link ByteEdit} applies: BOM, no CR, UTF-8 validity (a settled range at a
 * time) and the occurrences of `old_string`; each step only looks at bytes it has not seen. Any doubt sends the edit
 * to the text path, which is always right.
 */
export class ByteScan {
  private viable = true;
  private started = false;
  private bomBytes = 0;
  private crTo = 0;
  private utf8To = 0;
  private searchFrom = 0;
  private first = -1;
  private lineFeedsTo = 0;
  private lineFeeds = 0;
  private readonly oldText: string;
  private readonly newText: string;
  private readonly needle: Buffer;
  /** What verifying candidates may cost: grows with the bytes seen, so the scan stays linear. */
  private readonly allowance: ByteAllowance;

  constructor(oldString: string, newString: string) {
    this.oldText = oldString.replaceAll('\r\n', '\n');
    this.newText = newString.replaceAll('\r\n', '\n');
    this.needle = Buffer.from(this.oldText, 'utf8');
    this.allowance = byteAllowance(0, this.needle.length);
    if (this.needle.length === 0 || firstLoneSurrogate(this.oldText) >= 0) this.viable = false;
  }

  private start(bytes: Buffer, length: number): void {
    this.started = true;
    const at = (i: number): number | undefined => (i < length ? bytes[i] : undefined);
    this.bomBytes = at(0) === 0xef && at(1) === 0xbb && at(2) === 0xbf ? 3 : 0;
    const utf16 = (at(0) === 0xff && at(1) === 0xfe) || (at(0) === 0xfe && at(1) === 0xff);
    if (this.bomBytes === 0 && utf16) this.viable = false;
    this.crTo = this.bomBytes;
    this.utf8To = this.bomBytes;
    this.searchFrom = this.bomBytes;
    this.lineFeedsTo = this.bomBytes;
  }

  private scan(bytes: Buffer, length: number, final: boolean): void {
    if (!this.started) this.start(bytes, length);
    if (!this.viable || length < this.bomBytes) return;
    if (bytes.subarray(this.crTo, length).indexOf(CR) >= 0) this.viable = false;
    this.allowance.left += 4 * (length - this.crTo);
    this.crTo = length;
    for (;;) {
      const found = findBytes(bytes, this.needle, this.searchFrom, length, this.allowance);
      // Repetitive bytes that would make the search costly: the paced text path takes over.
      if (found === 'over') {
        this.viable = false;
        return;
      }
      if (found < 0) break;
      if (this.first >= 0) {
        this.viable = false;
        return;
      }
      this.first = found;
      this.searchFrom = this.first + this.needle.length;
    }
    this.searchFrom = Math.max(this.searchFrom, length - this.needle.length + 1);
    // Before a hit is known, stop where one could still begin (it may end in bytes not read yet).
    const countTo = this.first >= 0 ? this.first : Math.min(this.searchFrom, length);
    if (countTo > this.lineFeedsTo) {
      this.lineFeeds += countLineFeedsIn(bytes, this.lineFeedsTo, countTo);
      this.lineFeedsTo = countTo;
    }
    const settled = final ? length : sequenceBoundary(bytes, this.utf8To, length);
    if (!isUtf8(bytes.subarray(this.utf8To, settled))) this.viable = false;
    this.utf8To = settled;
  }

  /** Looks at `bytes[0, length)`; pass it as the read's `onData`. */
  readonly feed = (bytes: Buffer, length: number): void => {
    if (this.viable && (this.started || length >= 3)) this.scan(bytes, length, false);
  };

  /** The edit to make on the whole file as read, or undefined when the text path must handle it. */
  finish(bytes: Buffer): ByteEdit | undefined {
    if (this.viable) this.scan(bytes, bytes.length, true);
    if (!this.viable || this.first < 0) return undefined;
    return {
      encoding: this.bomBytes ? 'utf-8-bom' : 'utf-8',
      bomBytes: this.bomBytes,
      start: this.first,
      end: this.first + this.needle.length,
      lineFeedsBefore: this.lineFeeds,
      oldText: this.oldText,
      newText: this.newText,
      replacement: Buffer.from(this.newText, 'utf8'),
    };
  }
}

function lineStartAt(bytes: Buffer, at: number, floor: number): number {
  if (at <= floor) return floor;
  const previous = bytes.lastIndexOf(LF, at - 1);
  return previous < floor ? floor : previous + 1;
}

/**
 * Byte bounds of the whole lines around `bytes[start, end)` that a diff with `context` lines needs: a few more than that
 * above the line holding `start` and below `end` (fewer where `floor`, the start of the text, or the end of `bytes`
 * comes first).
 */
export function excerptBounds(
  bytes: Buffer,
  start: number,
  end: number,
  floor: number,
  context: number,
): { from: number; to: number } {
  let from = lineStartAt(bytes, start, floor);
  for (let n = 0; n <= context && from > floor; n++) from = lineStartAt(bytes, from - 1, floor);
  let to = end;
  for (let n = 0; n < context + 3 && to < bytes.length; n++) {
    const next = bytes.indexOf(LF, to);
    to = next < 0 ? bytes.length : next + 1;
  }
  return { from, to };
}

/**
 * Whole lines of text around the edit, enough for a diff with `context` lines (see {@link excerptBounds}). Returns
 * where the excerpt starts (in bytes), its old and new text and the offset of the occurrence within it.
 */
export function excerptAround(
  bytes: Buffer,
  edit: ByteEdit,
  context: number,
): { from: number; oldText: string; newText: string; at: number } {
  const { from, to } = excerptBounds(bytes, edit.start, edit.end, edit.bomBytes, context);
  const before = bytes.toString('utf8', from, edit.start);
  const after = bytes.toString('utf8', edit.end, to);
  return { from, oldText: before + edit.oldText + after, newText: before + edit.newText + after, at: before.length };
}

/** Applies the edit to `bytes`, in place when the result is not longer (the input buffer is consumed). */
export function applyByteEdit(bytes: Buffer, edit: ByteEdit): Buffer {
  const growth = edit.replacement.length - (edit.end - edit.start);
  if (growth > 0) return Buffer.concat([bytes.subarray(0, edit.start), edit.replacement, bytes.subarray(edit.end)]);
  edit.replacement.copy(bytes, edit.start);
  if (growth < 0) bytes.copyWithin(edit.start + edit.replacement.length, edit.end);
  return bytes.subarray(0, bytes.length + growth);
}

const HASH_SLICE = 1024 * 1024;

/**
 * SHA-256 (hex) of `data`, computed a slice at a time while `work` (the write of those same bytes) runs on the I/O
 * threads: between slices the event loop moves the write along, so hashing and writing overlap instead of queueing.
 * Resolves to the digest and `work`'s value; a rejection of `work` is passed on after hashing ends.
 */
export async function digestWhile<T>(data: Uint8Array, work: Promise<T>): Promise<{ sha256: string; value: T }> {
  const settled = work.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const hash = createHash('sha256');
  for (let at = 0; at < data.length; at += HASH_SLICE) {
    hash.update(data.subarray(at, at + HASH_SLICE));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const sha256 = hash.digest('hex');
  const outcome = await settled;
  if (!outcome.ok) throw outcome.error;
  return { sha256, value: outcome.value };
}
