import { readSync } from 'node:fs';
import type { CountingBuffer } from '@bough/workspace/internal';

// The first bytes of every file are read into a plain buffer of this size: one read, no WebAssembly memory to set up.
export const SMALL_READ_BYTES = 64 * 1024;
// The least the first read asks for: a page-cache read costs about the same up to a few pages.
const MIN_FIRST_READ = 8 * 1024;
const EMPTY = Buffer.alloc(0);

function decodeLike(bytes: Buffer): string {
  // ripgrep transcodes files with a UTF-16 byte-order mark and drops a UTF-8 one; do the same before comparing.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

/** What confirming needs of an open file: its descriptor, reads from the current position, and the rest of it. */
export interface OpenFile {
  readonly fd: number;
  read(buffer: Buffer, offset: number, length: number, position: null): Promise<{ bytesRead: number }>;
  readFile(): Promise<Buffer>;
}

export const isUtf16Bom = (bytes: Buffer) =>
  bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));

/**
 * The wanted lines (1-based) of the file behind `handle` (opened by the workspace gate), read once from the start
 * (its read position, which the positioned reads of the offset check never move) and only as far as the last wanted
 * line. In UTF-8 a 0x0a byte is always a newline and never part of another character, so splitting
 * the bytes first and decoding each wanted line alone gives exactly what decoding the whole file and splitting would
 * (the byte-order mark is dropped on the first line only). UTF-16 files are decoded whole, as before. A chunk that
 * holds no wanted line is only counted (SIMD), so a match near the end of a large file costs one pass of reads.
 */
export async function linesOf(
  handle: OpenFile,
  wanted: ReadonlySet<number>,
  readerFor: (large: boolean) => CountingBuffer,
  firstReadBytes = SMALL_READ_BYTES,
): Promise<Map<number, string> | undefined> {
  let reader = readerFor(false);
  let large = false;
  const found = new Map<number, string>();
  const ascending = [...wanted].sort((a, b) => a - b);
  const last = ascending[ascending.length - 1] ?? 0;
  let nextIndex = 0; // ascending[nextIndex] is the first wanted line not yet passed
  try {
    let carry: Buffer = EMPTY; // bytes of the current, unfinished line when it is a wanted one
    let lineNo = 1;
    let first = true;
    let readSoFar = 0;
    const take = (bytes: Buffer) => {
      found.set(lineNo, new TextDecoder('utf-8', { ignoreBOM: lineNo !== 1 }).decode(bytes));
    };
    for (;;) {
      // The first SMALL_READ_BYTES of every file are read synchronously into a small buffer: one short read from the
      // page cache costs less than a thread-pool round trip, and most matches shown are near the start of their file
      // (imports, headers). Past that, reads are asynchronous into a large SIMD-counted buffer, taken only then, so a
      // long file never blocks the loop.
      if (readSoFar >= SMALL_READ_BYTES && !large) {
        reader = readerFor(true);
        large = true;
      }
      const { buffer } = reader;
      // The first read stops where ripgrep said the last wanted line ends (a hint: when the file says otherwise, the
      // reads simply go on), so a match near the top of a file costs a few KiB of copying instead of 64.
      const length = first ? Math.min(buffer.length, Math.max(firstReadBytes, MIN_FIRST_READ)) : buffer.length;
      const bytesRead = large
        ? (await handle.read(buffer, 0, buffer.length, null)).bytesRead
        : readSync(handle.fd, buffer, 0, length, null);
      readSoFar += bytesRead;
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      if (first) {
        first = false;
        if (isUtf16Bom(chunk) || (bytesRead === 1 && (chunk[0] === 0xff || chunk[0] === 0xfe))) {
          const rest = await handle.readFile();
          const lines = decodeLike(Buffer.concat([chunk, rest])).split('\n');
          for (const n of wanted) if (lines[n - 1] !== undefined) found.set(n, lines[n - 1] as string);
          return found;
        }
      }
      while ((ascending[nextIndex] ?? Number.POSITIVE_INFINITY) < lineNo) nextIndex++;
      const next = ascending[nextIndex] ?? Number.POSITIVE_INFINITY;
      if (next > lineNo) {
        // The line in progress is not wanted; when the chunk ends before the next wanted line starts, count and go on.
        const newlines = reader.count(0, bytesRead);
        if (lineNo + newlines < next) {
          lineNo += newlines;
          continue;
        }
      }
      // Newlines are only located (memchr); bytes are sliced and kept for wanted lines alone.
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        if (wanted.has(lineNo)) {
          const piece = chunk.subarray(start, nl);
          take(carry.length > 0 ? Buffer.concat([carry, piece]) : piece);
          carry = EMPTY;
        }
        lineNo++;
        start = nl + 1;
        if (lineNo > last) return found;
      }
      // The reused read buffer is overwritten next time, so a wanted line that continues is copied out.
      if (wanted.has(lineNo)) carry = Buffer.concat([carry, chunk.subarray(start)]);
    }
    if (wanted.has(lineNo)) take(carry);
    return found;
  } catch {
    return undefined;
  }
}
