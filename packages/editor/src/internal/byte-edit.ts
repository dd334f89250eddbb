import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
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
  /** `old_string` and `new_string` with CRLF folded to LF, as the text path uses them. */
  oldText: string;
  newText: string;
  replacement: Buffer;
}

const CR = 13;
const LF = 10;

/** Plans the edit on bytes, or returns undefined when the general text path must decide (or report a failure). */
export function planByteEdit(bytes: Buffer, oldString: string, newString: string): ByteEdit | undefined {
  const bomBytes = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  if (bomBytes === 0 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return undefined;
  }
  if (bytes.indexOf(CR, bomBytes) >= 0) return undefined;
  const oldText = oldString.replaceAll('\r\n', '\n');
  if (firstLoneSurrogate(oldText) >= 0) return undefined;
  const needle = Buffer.from(oldText, 'utf8');
  const start = bytes.indexOf(needle, bomBytes);
  if (start < 0) return undefined;
  const end = start + needle.length;
  if (bytes.indexOf(needle, end) >= 0) return undefined;
  if (!isUtf8(bytes.subarray(bomBytes))) return undefined;
  const newText = newString.replaceAll('\r\n', '\n');
  return {
    encoding: bomBytes ? 'utf-8-bom' : 'utf-8',
    bomBytes,
    start,
    end,
    oldText,
    newText,
    replacement: Buffer.from(newText, 'utf8'),
  };
}

/** Number of LF bytes in `bytes[from, to)`. */
export function countLineFeeds(bytes: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = bytes.indexOf(LF, from); i >= 0 && i < to; i = bytes.indexOf(LF, i + 1)) n++;
  return n;
}

function lineStartAt(bytes: Buffer, at: number, floor: number): number {
  if (at <= floor) return floor;
  const previous = bytes.lastIndexOf(LF, at - 1);
  return previous < floor ? floor : previous + 1;
}

/**
 * Whole lines of text around the edit, enough for a diff with `context` lines: a few more than that above the edited
 * line and below the end of the occurrence (fewer at the file's edges). Returns where the excerpt starts (in bytes),
 * its old and new text and the offset of the occurrence within it.
 */
export function excerptAround(
  bytes: Buffer,
  edit: ByteEdit,
  context: number,
): { from: number; oldText: string; newText: string; at: number } {
  let from = lineStartAt(bytes, edit.start, edit.bomBytes);
  for (let n = 0; n <= context && from > edit.bomBytes; n++) from = lineStartAt(bytes, from - 1, edit.bomBytes);
  let to = edit.end;
  for (let n = 0; n < context + 3 && to < bytes.length; n++) {
    const next = bytes.indexOf(LF, to);
    to = next < 0 ? bytes.length : next + 1;
  }
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
