import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { type CountingBuffer, countingBuffer, firstInvalidUtf8 } from '@bough/workspace/internal';
import { RowBuilder, type WindowResult } from './row-builder.js';
import { completePrefixLength, countCodePoints } from './utf8.js';

/** Settings of one streamed window read. */
export interface StreamWindowOptions {
  start: number;
  /** File size in bytes, to tell whether anything follows a window that stopped early. */
  size: number;
  offset: number;
  limit: number;
  maxLineChars: number;
  maxOutputBytes: number;
  chunkBytes: number;
  /** Keep reading after the window to count every line and hash the whole file. */
  fullScan: boolean;
  /**
   * Bytes from the start of the file the caller already read through the same descriptor (the binary sniff, or the
   * whole file); they stand in for the reads they cover, so a file that fits in them is read once, not twice.
   */
  head?: Uint8Array;
  signal?: AbortSignal;
}

/** A window read from a UTF-8 file, plus what was learnt about the whole file on the way. */
export interface StreamWindowResult extends WindowResult {
  totalLines?: number;
  sha256?: string;
  /** Byte offset of the first invalid UTF-8 sequence met in a shown line. */
  invalidUtf8At?: number;
  aborted: boolean;
}

/** Below this many bytes a scratch buffer is an ordinary small allocation, not worth keeping. */
const REUSE_MIN_BYTES = 64 * 1024;

/**
 * One big scratch buffer kept between reads. A window of a large file wants a chunk-sized buffer (1 MiB by default,
 * a shared WebAssembly memory with its own counter instance); allocating it per read meant an mmap, a megabyte of
 * freshly zeroed pages and an instance on every call. Only one is kept (the largest), and only while no read holds
 * it; a read that finds it taken allocates its own as before.
 */
let spare: CountingBuffer | undefined;

function scratch(bytes: number): CountingBuffer {
  if (bytes >= REUSE_MIN_BYTES && spare && spare.buffer.length >= bytes) {
    const taken = spare;
    spare = undefined;
    return taken;
  }
  return countingBuffer(bytes);
}

function release(counter: CountingBuffer): void {
  if (counter.buffer.length < REUSE_MIN_BYTES) return;
  if (!spare || spare.buffer.length < counter.buffer.length) spare = counter;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

/**
 * Streams a file in large chunks, finding line breaks with a byte scan. Only lines inside the window are kept (each
 * capped), so memory follows the window, not the file. With `fullScan` it reads to the end for totals and the hash.
 * Without a `handle`, `head` is the whole file.
 */
export async function streamWindow(
  handle: FileHandle | undefined,
  options: StreamWindowOptions,
): Promise<StreamWindowResult> {
  const builder = new RowBuilder(options.offset, options.limit, options.maxLineChars, options.maxOutputBytes);
  const hash = options.fullScan ? createHash('sha256') : undefined;
  const keepBytes = options.maxLineChars * 4 + 4;
  // A small file needs no megabyte buffer (one read plus the end-of-file read is enough).
  const wanted = Math.max(1, Math.min(options.chunkBytes, options.size + 1));
  const counter = scratch(wanted);
  try {
    return await streamWith(handle, options, builder, hash, keepBytes, counter, counter.buffer.subarray(0, wanted));
  } finally {
    release(counter);
  }
}

async function streamWith(
  handle: FileHandle | undefined,
  options: StreamWindowOptions,
  builder: RowBuilder,
  hash: ReturnType<typeof createHash> | undefined,
  keepBytes: number,
  counter: CountingBuffer,
  chunk: Buffer,
): Promise<StreamWindowResult> {
  let position = 0;
  let index = 0; // 0-based line being read
  let lineStart = options.start;
  let parts: Buffer[] = [];
  let kept = 0;
  let droppedBytes: Buffer[] = [];
  let invalidAt: number | undefined;
  let pendingPartial = false;
  let aborted = false;
  /** Adds the row of line `index` from its kept bytes, `dropped` code points having been cut off after them. */
  const addRow = (bytes: Buffer, dropped: number): void => {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      const bad = firstInvalidUtf8(bytes);
      invalidAt ??= lineStart + Math.max(bad, 0);
      text = lenient.decode(bytes);
    }
    builder.add(index, text, dropped);
  };
  const emit = (): void => {
    const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    const usable = droppedBytes.length > 0 ? completePrefixLength(bytes, bytes.length) : bytes.length;
    const dropped = countCodePoints(bytes.subarray(usable)) + droppedBytes.reduce((n, b) => n + countCodePoints(b), 0);
    addRow(bytes.subarray(0, usable), dropped);
    parts = [];
    kept = 0;
    droppedBytes = [];
  };
  const keep = (piece: Buffer): void => {
    if (piece.length === 0) return;
    const room = Math.max(0, keepBytes - kept);
    if (room > 0) parts.push(Buffer.from(piece.subarray(0, room)));
    if (piece.length > room) droppedBytes.push(Buffer.from(piece.subarray(room)));
    kept += Math.min(room, piece.length);
  };
  for (;;) {
    if (options.signal?.aborted) {
      aborted = true;
      break;
    }
    let bytesRead: number;
    const head = options.head;
    if (head && position < head.byteLength) {
      bytesRead = Math.min(head.byteLength - position, chunk.length);
      chunk.set(head.subarray(position, position + bytesRead), 0);
    } else if (handle) {
      ({ bytesRead } = await handle.read(chunk, 0, chunk.length, position));
    } else {
      bytesRead = 0;
    }
    if (bytesRead === 0) break;
    const data = chunk.subarray(0, bytesRead);
    hash?.update(data);
    const base = position;
    let at = base === 0 ? options.start : 0;
    position += bytesRead;
    while (at < data.length) {
      // Lines before the window, and (on a full scan) lines after it, are only counted, a chunk at a time.
      const countOnly = builder.done || builder.before(index);
      if (countOnly) {
        const wanted = builder.done ? Number.POSITIVE_INFINITY : options.offset - index;
        const found = counter.count(at, data.length);
        if (found < wanted) {
          if (found > 0) {
            const last = data.lastIndexOf(10);
            index += found;
            lineStart = base + last + 1;
            pendingPartial = last + 1 < data.length;
          } else {
            pendingPartial = true;
          }
          break;
        }
        // The window starts inside this chunk: step to it line by line.
        while (index < options.offset) {
          at = data.indexOf(10, at) + 1;
          index++;
        }
        lineStart = base + at;
        pendingPartial = false;
        continue;
      }
      const nl = data.indexOf(10, at);
      if (nl >= 0 && nl - at <= keepBytes && parts.length === 0 && droppedBytes.length === 0) {
        // The whole line is in this chunk and short enough to keep: decoded where it lies, no copy.
        addRow(data.subarray(at, nl), 0);
      } else {
        keep(data.subarray(at, nl < 0 ? data.length : nl));
        if (nl < 0) {
          pendingPartial = true;
          break;
        }
        emit();
      }
      index++;
      at = nl + 1;
      lineStart = base + at;
      pendingPartial = false;
      if (builder.done && !options.fullScan) break;
    }
    if (builder.done && !options.fullScan) break;
    // A short read that reached the size fstat gave is the end of the file: the read that would return 0 is skipped.
    // Bytes appended after the open are left out either way, as they would be by a read a moment earlier.
    if (bytesRead < chunk.length && position >= options.size) break;
  }
  const atEnd = !aborted && (options.fullScan || !builder.done);
  if (pendingPartial && atEnd && !builder.before(index) && !builder.done) emit();
  const totalLines = atEnd ? index + (pendingPartial ? 1 : 0) : undefined;
  const moreAfter = !atEnd && lineStart < options.size;
  return {
    ...builder.finish(totalLines, moreAfter),
    ...(totalLines !== undefined ? { totalLines } : {}),
    ...(hash && atEnd ? { sha256: hash.digest('hex') } : {}),
    ...(invalidAt !== undefined ? { invalidUtf8At: invalidAt } : {}),
    aborted,
  };
}
