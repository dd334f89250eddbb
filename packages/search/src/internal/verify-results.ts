import { closeSync, read, readFile, readSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { promisify } from 'node:util';
import { type CountingBuffer, countingBuffer, type Workspace } from '@bough/workspace';
import { type HeldDir, holdDir, openFileIn, PROC_FD } from './held-dir.js';

/** One line ripgrep reported, kept raw until it is confirmed against the file the workspace gate opens. */
export interface PendingMatch {
  /** Workspace-relative posix path. */
  readonly path: string;
  readonly line: number;
  /** Byte offset of the line's start as ripgrep reported it (`--byte-offset`); lets a large file be checked in place. */
  readonly offset?: number;
  /** The line text as ripgrep printed it (possibly cut with ripgrep's own marker). */
  readonly text: string;
}

// ripgrep's own markers for a line cut by --max-columns-preview.
export const RG_CUT_MARKER = / \[\.\.\. (?:omitted end of long line|\d+ more match(?:es)?)\]$/;

// Files whose matches are being confirmed at the same time; each holds at most one read buffer.
const CONFIRM_CONCURRENCY = 8;
// Read size while looking for the lines to confirm in a large file (one such buffer per large file in flight).
const CONFIRM_READ_BYTES = 1024 * 1024;
// The first bytes of every file are read into a plain buffer of this size: one read, no WebAssembly memory to set up.
const SMALL_READ_BYTES = 64 * 1024;
// Files of at least this size have each match checked at ripgrep's byte offset instead of by counting lines from the
// start; smaller files are cheap to re-read, and that check also proves the line number.
const OFFSET_CHECK_BYTES = 1024 * 1024;
const EMPTY = Buffer.alloc(0);
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

function decodeLike(bytes: Buffer): string {
  // ripgrep transcodes files with a UTF-16 byte-order mark and drops a UTF-8 one; do the same before comparing.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

/** What confirming needs of an open file: its descriptor, reads from the current position, and the rest of it. */
interface OpenFile {
  readonly fd: number;
  read(buffer: Buffer, offset: number, length: number, position: null): Promise<{ bytesRead: number }>;
  readFile(): Promise<Buffer>;
}

const readFd = promisify(read);
const readRestOf = promisify(readFile);

/** The same reads as a FileHandle's, for a descriptor opened in a held directory. */
function plainFile(fd: number): OpenFile {
  return {
    fd,
    read: (buffer, offset, length, position) => readFd(fd, buffer, offset, length, position),
    readFile: () => readRestOf(fd),
  };
}

const isUtf16Bom = (bytes: Buffer) =>
  bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));

/**
 * The wanted lines (1-based) of the file behind `handle` (opened by the workspace gate), read once from the start
 * (its read position, which the positioned reads of the offset check never move) and only as far as the last wanted
 * line. In UTF-8 a 0x0a byte is always a newline and never part of another character, so splitting
 * the bytes first and decoding each wanted line alone gives exactly what decoding the whole file and splitting would
 * (the byte-order mark is dropped on the first line only). UTF-16 files are decoded whole, as before. A chunk that
 * holds no wanted line is only counted (SIMD), so a match near the end of a large file costs one pass of reads.
 */
async function linesOf(
  handle: OpenFile,
  wanted: ReadonlySet<number>,
  readerFor: (large: boolean) => CountingBuffer,
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
      const bytesRead = large
        ? (await handle.read(buffer, 0, buffer.length, null)).bytesRead
        : readSync(handle.fd, buffer, 0, buffer.length, null);
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

/** The part of ripgrep's text a confirmation must find in the file: without the cut marker and a cut character. */
function shownPart(text: string): string {
  return text.replace(RG_CUT_MARKER, '').replace(/\uFFFD+$/, '');
}

/**
 * Reads up to `length` bytes at `position` (fewer only at the end of the file). Synchronous on purpose: it only ever
 * reads a line's worth of bytes (a few KiB at most), which costs less than a thread-pool round trip.
 */
function readAt(handle: { readonly fd: number }, position: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const bytesRead = readSync(handle.fd, bytes, got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return bytes.subarray(0, got);
}

/** True when the file starts with a UTF-8 or UTF-16 byte-order mark, which makes ripgrep transcode it. */
function startsWithBom(handle: { readonly fd: number }): boolean {
  const head = readAt(handle, 0, 3);
  return isUtf16Bom(head) || (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf);
}

/**
 * True only when the bytes of the gate-opened file at ripgrep's byte offset are exactly the line ripgrep printed: the
 * byte before is a newline (or the offset is 0), the bytes there equal the UTF-8 of the text, and an uncut line ends
 * right after it (newline, CRLF, or end of file). A line cut by ripgrep's preview only has to start with its shown
 * part. This proves the shown text is in this in-workspace file; the line number stays ripgrep's, which is wrong only
 * if the file changed after ripgrep read it (then the text shown is still this file's). Anything it cannot decide
 * exactly (text that was not valid UTF-8, a changed file) returns false and is checked line by line instead.
 */
function heldAtOffset(handle: { readonly fd: number }, size: number, match: PendingMatch): boolean {
  const { offset } = match;
  if (offset === undefined || !Number.isSafeInteger(offset) || offset < 0 || offset > size) return false;
  const cut = RG_CUT_MARKER.test(match.text);
  const expected = Buffer.from(cut ? shownPart(match.text) : match.text, 'utf8');
  const before = offset === 0 ? 0 : 1;
  // The byte before the line, the line, and (uncut) up to two bytes after it for the line end.
  const bytes = readAt(handle, offset - before, before + expected.length + (cut ? 0 : 2));
  if (before === 1 && bytes[0] !== NEWLINE) return false;
  const end = before + expected.length;
  if (bytes.length < end || !bytes.subarray(before, end).equals(expected)) return false;
  if (cut) return true;
  const after = bytes.subarray(end);
  return (
    after.length === 0 ||
    after[0] === NEWLINE ||
    (after[0] === CARRIAGE_RETURN && (after.length === 1 || after[1] === NEWLINE))
  );
}

// Directories held open at once while confirming (matches come in path order, so a directory's files are together).
const HELD_DIRS = 32;

function closeOldest(dirs: Map<string, HeldDir | undefined>): void {
  const [dir, held] = dirs.entries().next().value ?? [];
  if (dir === undefined) return;
  dirs.delete(dir);
  if (held) closeSync(held.fd);
}

/**
 * Opens one file for confirming, the gate's way: the path is resolved by the workspace (names, containment, links
 * along the way) and must come back as itself, a regular file; on Linux its name is then opened without following
 * links inside its parent directory, held open and proven by the kernel to be the directory the gate returned, and the
 * descriptor must be a regular file within `maxBytes`. All of that is synchronous, which costs a fraction of the
 * gate's thread-pool open and close. Anywhere this cannot be proven the file goes through `workspace.openRead`.
 */
async function openForCheck(
  workspace: Workspace,
  path: string,
  maxBytes: number,
  dirs: Map<string, HeldDir | undefined>,
): Promise<{ file: OpenFile; size: number; close: () => void } | undefined> {
  if (PROC_FD) {
    const where = await workspace.resolve(path, 'read');
    if (!where.success || where.kind !== 'file' || where.relative !== path) return undefined;
    const dir = dirname(where.path);
    if (!dirs.has(dir)) {
      // A held directory is only used inside this synchronous stretch, so the oldest can be closed at any time.
      if (dirs.size >= HELD_DIRS) closeOldest(dirs);
      dirs.set(dir, holdDir(dir));
    }
    const held = dirs.get(dir);
    const opened = held ? openFileIn(held, basename(where.path), maxBytes) : undefined;
    if (opened) {
      return {
        file: plainFile(opened.fd),
        size: opened.size,
        close: () => closeSync(opened.fd),
      };
    }
  }
  const opened = await workspace.openRead(path, { maxBytes });
  if (!opened.success) return undefined;
  const { handle } = opened;
  // Not waited for: nothing more is read through the handle, and the next file can be opened meanwhile.
  return { file: handle, size: opened.size, close: () => void handle.close().catch(() => undefined) };
}

/** What confirming one file decided: matches proven at their byte offset, and the lines read for the others. */
interface FileCheck {
  readonly atOffset: ReadonlySet<PendingMatch>;
  readonly lines: Map<number, string> | undefined;
}

const NOTHING_CONFIRMED: FileCheck = { atOffset: new Set(), lines: undefined };

/**
 * Opens one file (see {@link openForCheck}) and confirms its matches. In a large file that ripgrep did not transcode,
 * each match is checked at its byte offset first (a few bytes read instead of the file up to that line); the matches
 * that check cannot prove, and every match of a smaller or transcoded file, are checked by their lines as before.
 */
async function checkFile(
  workspace: Workspace,
  path: string,
  matches: readonly PendingMatch[],
  maxBytes: number,
  readerFor: (large: boolean) => CountingBuffer,
  dirs: Map<string, HeldDir | undefined>,
): Promise<FileCheck> {
  const opened = await openForCheck(workspace, path, maxBytes, dirs);
  if (!opened) return NOTHING_CONFIRMED;
  const { file, size } = opened;
  try {
    const atOffset = new Set<PendingMatch>();
    const byLine = new Set<number>();
    const offsetsUsable = size >= OFFSET_CHECK_BYTES && !startsWithBom(file);
    for (const match of matches) {
      if (offsetsUsable && heldAtOffset(file, size, match)) atOffset.add(match);
      else byLine.add(match.line);
    }
    const lines = byLine.size > 0 ? await linesOf(file, byLine, readerFor) : new Map<number, string>();
    return { atOffset, lines };
  } catch {
    return NOTHING_CONFIRMED; // a file that could not be read is never shown
  } finally {
    opened.close();
  }
}

/** Runs `work` over `items` with at most `limit` at a time; `cancelled()` stops picking up new items. */
function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  cancelled: () => boolean,
) {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !cancelled()) await work(items[next++] as T);
  };
  return Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Keeps only the matches whose text is really in the file the workspace gate opens now: on that line, or (files of
 * `OFFSET_CHECK_BYTES` and more) at ripgrep's byte offset of that line. ripgrep opens files by path while it walks, so
 * a directory or file swapped for a link during the walk could have shown it text from outside; re-reading through
 * the gate (no links, containment, protected names) means such text never reaches a result — at worst a genuine
 * match is dropped and counted. Each file is opened once: large files are read only at their matches' offsets, other
 * files (and matches the offset check cannot prove) only up to their last match line, with a few files in flight at a
 * time; results are still decided in match order.
 */
export async function confirmMatches(
  workspace: Workspace,
  matches: readonly PendingMatch[],
  maxBytes: number,
  budget: ConfirmBudget = {},
): Promise<{ kept: PendingMatch[]; dropped: number; unchecked: number }> {
  const byPath = new Map<string, PendingMatch[]>();
  for (const match of matches) {
    const group = byPath.get(match.path);
    if (group) group.push(match);
    else byPath.set(match.path, [match]);
  }
  const files = new Map<string, Promise<FileCheck>>();
  const ready = new Map<string, (check: FileCheck) => void>();
  for (const path of byPath.keys()) {
    files.set(path, new Promise((resolve) => ready.set(path, resolve)));
  }
  let settled = false;
  // Read buffers are reused from file to file: a plain one for small files, a SIMD-counted one for large files.
  const idleSmall: CountingBuffer[] = [];
  const idleLarge: CountingBuffer[] = [];
  // Parent directories held open while their files are confirmed, closed once every file is decided.
  const dirs = new Map<string, HeldDir | undefined>();
  const checked = eachLimited(
    [...byPath.keys()],
    CONFIRM_CONCURRENCY,
    async (path) => {
      const taken: [CountingBuffer, CountingBuffer[]][] = [];
      const readerFor = (large: boolean) => {
        const pool = large ? idleLarge : idleSmall;
        const reader =
          pool.pop() ??
          (large
            ? countingBuffer(CONFIRM_READ_BYTES, { simd: true })
            : countingBuffer(SMALL_READ_BYTES, { simd: false }));
        taken.push([reader, pool]);
        return reader;
      };
      let check = NOTHING_CONFIRMED;
      try {
        check = await checkFile(workspace, path, byPath.get(path) as PendingMatch[], maxBytes, readerFor, dirs);
      } catch {
        check = NOTHING_CONFIRMED; // a file the gate could not open is never shown
      } finally {
        for (const [reader, pool] of taken) pool.push(reader);
      }
      ready.get(path)?.(check);
    },
    () => settled,
  );
  const kept: PendingMatch[] = [];
  let dropped = 0;
  try {
    for (const [index, match] of matches.entries()) {
      // Unchecked text is never shown: when time runs out the rest is left out (and counted) instead of waited for.
      if (outOfTime(budget)) return { kept, dropped, unchecked: matches.length - index };
      const check = await files.get(match.path);
      if (check?.atOffset.has(match)) {
        kept.push(match);
        continue;
      }
      const actual = check?.lines?.get(match.line)?.replace(/\r$/, '');
      if (actual?.startsWith(shownPart(match.text))) kept.push(match);
      else dropped++;
    }
    return { kept, dropped, unchecked: 0 };
  } finally {
    settled = true;
    // Files still in flight when time ran out finish first; then the held directories are closed.
    void checked.then(() => {
      for (const held of dirs.values()) if (held) closeSync(held.fd);
      dirs.clear();
    });
  }
}

/** When confirming must stop: the search's own deadline (epoch ms) and the call's abort signal. */
export interface ConfirmBudget {
  readonly deadline?: number;
  readonly signal?: AbortSignal;
}

/** Checking may use what is left of the search budget, and at least `confirmMs` once ripgrep has ended. */
export function confirmDeadline(started: number, limits: { timeoutMs: number; confirmMs: number }): number {
  return Math.max(started + limits.timeoutMs, Date.now() + limits.confirmMs);
}

/** True once the call was cancelled or the confirmation deadline has passed. */
export function outOfTime(budget: ConfirmBudget): boolean {
  return (budget.signal?.aborted ?? false) || (budget.deadline !== undefined && Date.now() >= budget.deadline);
}
