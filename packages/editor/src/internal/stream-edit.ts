import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { OpenedFile, ReplacementSink } from '@bough/workspace';
import { countLineFeedsIn } from '@bough/workspace/internal';
import { excerptBounds, sequenceBoundary } from './byte-edit.js';
import { byteAllowance, findBytes } from './byte-find.js';
import { firstLoneSurrogate } from './text-codec.js';
import { windowRing } from './window-ring.js';

const CR = 13;
const LF = 10;
/** Read buffers in rotation: one being read into, one being scanned, the rest still being written out. */
const RING = 4;
/** Smallest read step used whatever the limit says, so every window can hold a BOM and a sequence boundary. */
const MIN_CHUNK = 64;
/** Bytes read around the occurrence at first when cutting the diff excerpt; widened until whole lines fit. */
const EXCERPT_SPAN = 64 * 1024;

/** What a streamed pass found and wrote; only produced when the single replacement was made on every byte. */
export interface StreamedEdit {
  encoding: 'utf-8' | 'utf-8-bom';
  /** Byte range of the one occurrence in the original file. */
  start: number;
  end: number;
  /** Line feeds before the occurrence (after the BOM). */
  lineFeedsBefore: number;
  /** Whether the original has any line feed after its BOM. */
  hasLineFeed: boolean;
  /** Length and SHA-256 (hex) of the bytes written; no hash unless the request asked for one. */
  outputBytes: number;
  sha256?: string;
  /** Whole lines around the occurrence, as text: where they start (in bytes) and the offset of the occurrence. */
  excerpt: { from: number; oldText: string; newText: string; at: number };
  /** Lines of the file above the excerpt. */
  linesBefore: number;
}

/** Why a streamed pass gave up: the whole-file path must decide (the file may also have moved), or a cancel. */
export type StreamStop = 'whole_file' | 'aborted';

/** A read of the original that failed; kept apart from write failures, which the workspace reports itself. */
export class StreamReadError extends Error {
  constructor(readonly code: string) {
    super(`read failed (${code})`);
  }
}

const readFailed = (error: unknown): never => {
  throw new StreamReadError((error as { code?: string }).code ?? 'unknown error');
};

/** The texts of one edit, as the text path would use them (CRLF in the arguments folded to LF). */
export interface StreamRequest {
  oldText: string;
  newText: string;
  maxFileBytes: number;
  chunkBytes: number;
  diffContextLines: number;
  signal?: AbortSignal | undefined;
  /** Hash the bytes written (default true); the caller leaves it off when the response will not carry the digest. */
  hash?: boolean;
  /** Count line feeds with the WebAssembly SIMD counter when available (default true; tests turn it off). */
  simd?: boolean;
}

/** Whether a request can be streamed at all (a malformed `old_string` is for the text path to judge). */
export function streamable(oldText: string): boolean {
  return oldText.length > 0 && firstLoneSurrogate(oldText) < 0;
}

/**
 * Reads `file` once, a window at a time, and writes the edited bytes to `sink` as it goes, so reading, checking,
 * hashing and writing overlap and only a few windows are ever in memory. It applies exactly when the whole-file byte
 * path would: UTF-8 (BOM or not) that is valid, no CR anywhere, and exactly one occurrence of `old_string`. Each
 * window hands its tail to the next: the last `old_string.length - 1` bytes (where an occurrence may still be
 * incomplete), moved back to the start of a UTF-8 sequence, so an occurrence or a character split between reads is
 * seen whole; every byte is checked and written exactly once.
 * Returns the edit, or why the caller must not keep what was written.
 */
export async function streamEdit(
  file: Omit<OpenedFile, 'ok'>,
  sink: ReplacementSink,
  request: StreamRequest,
): Promise<StreamedEdit | StreamStop> {
  const { handle } = file;
  const needle = Buffer.from(request.oldText, 'utf8');
  const replacement = Buffer.from(request.newText, 'utf8');
  const allowance = byteAllowance(file.size, needle.length);
  const head = needle.length + 3;
  const chunk = Math.max(MIN_CHUNK, needle.length, Math.floor(request.chunkBytes));
  const scratch = windowRing(RING, head + chunk, request.simd ?? true);
  const ring = scratch.buffers;
  const writes: Array<Promise<unknown> | undefined> = new Array(RING).fill(undefined);
  const hash = request.hash === false ? undefined : createHash('sha256');
  let slot = 0;
  let carry = 0; // bytes at ring[slot][head - carry, head) taken over from the previous window
  let readAt = 0; // file offset of the next read
  let outAt = 0; // position of the next output byte
  let bom = -1;
  let start = -1;
  let lineFeeds = 0;
  let hasLineFeed = false;
  let searchFrom = 0; // file offset where the next occurrence may begin
  let pending = handle.read(ring[0]!, head, chunk, 0).catch(readFailed);
  const emit = (piece: Buffer, into: Array<Promise<void>>) => {
    if (piece.length === 0) return;
    into.push(sink.write(piece, outAt));
    hash?.update(piece);
    outAt += piece.length;
  };
  try {
    return await pass();
  } finally {
    // An early stop leaves one read in flight; let it land before the caller closes the file.
    await pending.catch(() => undefined);
  }
  async function pass(): Promise<StreamedEdit | StreamStop> {
    for (;;) {
      if (request.signal?.aborted) return 'aborted';
      const { bytesRead } = await pending;
      const buf = ring[slot]!;
      const final = bytesRead === 0;
      const from = head - carry;
      const end = head + bytesRead;
      const base = readAt - carry; // file offset of buf[from]
      readAt += bytesRead;
      if (readAt > request.maxFileBytes || readAt > file.size) return 'whole_file';
      const next = (slot + 1) % RING;
      if (!final) {
        await writes[next];
        pending = handle.read(ring[next]!, head, chunk, readAt).catch(readFailed);
      }
      let textFrom = from;
      if (bom < 0) {
        if (end - from < 3 && !final) return 'whole_file';
        const at = (i: number) => (from + i < end ? buf[from + i] : -1);
        bom = at(0) === 0xef && at(1) === 0xbb && at(2) === 0xbf ? 3 : 0;
        if (bom === 0 && ((at(0) === 0xff && at(1) === 0xfe) || (at(0) === 0xfe && at(1) === 0xff)))
          return 'whole_file';
        searchFrom = bom;
        textFrom = from + bom;
      }
      // Bytes from `keep` on go to the next window: an occurrence starting there may not be complete yet.
      let keep = final ? end : sequenceBoundary(buf, textFrom, Math.max(textFrom, end - (needle.length - 1)));
      const view = buf.subarray(0, end);
      let hit = -1;
      for (let at = Math.max(textFrom, from + (searchFrom - base)); ; ) {
        const found = findBytes(view, needle, at, end, allowance);
        // Repetitive bytes that would make the search costly: the paced text path takes over.
        if (found === 'over') return 'whole_file';
        if (found < 0 || found >= keep) break;
        if (start >= 0) return 'whole_file';
        hit = found;
        start = base + (found - from);
        at = found + needle.length;
        keep = Math.max(keep, at);
      }
      searchFrom = base + (keep - from);
      const pieces: Array<Promise<void>> = [];
      if (hit >= 0) {
        emit(buf.subarray(from, hit), pieces);
        emit(replacement, pieces);
        emit(buf.subarray(hit + needle.length, keep), pieces);
      } else {
        emit(buf.subarray(from, keep), pieces);
      }
      const written = Promise.all(pieces);
      written.catch(() => undefined); // seen when awaited below, or by the workspace; never an unhandled rejection
      writes[slot] = written;
      const text = buf.subarray(textFrom, keep);
      if (text.indexOf(CR) >= 0 || !isUtf8(text)) return 'whole_file';
      if (start < 0 || hit >= 0) {
        const counted = scratch.countLineFeeds(buf, textFrom, hit >= 0 ? hit : keep);
        lineFeeds += counted;
        if (counted > 0) hasLineFeed = true;
      }
      if (!hasLineFeed && text.indexOf(LF) >= 0) hasLineFeed = true;
      if (final) break;
      buf.copy(ring[next]!, head - (end - keep), keep, end);
      carry = end - keep;
      slot = next;
    }
    if (start < 0 || readAt !== file.size) return 'whole_file';
    const end = start + needle.length;
    const around = await excerptFromFile(handle, file.size, start, end, bom, request.diffContextLines);
    if (!around) return 'whole_file';
    const { block, blockStart, from, to } = around;
    const before = block.toString('utf8', from, start - blockStart);
    const after = block.toString('utf8', end - blockStart, to);
    return {
      encoding: bom ? 'utf-8-bom' : 'utf-8',
      start,
      end,
      lineFeedsBefore: lineFeeds,
      hasLineFeed,
      outputBytes: outAt,
      ...(hash ? { sha256: hash.digest('hex') } : {}),
      excerpt: {
        from: blockStart + from,
        oldText: before + request.oldText + after,
        newText: before + request.newText + after,
        at: before.length,
      },
      linesBefore: lineFeeds - countLineFeedsIn(block, from, start - blockStart),
    };
  }
}

async function readFully(handle: FileHandle, into: Buffer, position: number): Promise<boolean> {
  let got = 0;
  while (got < into.length) {
    const { bytesRead } = await handle.read(into, got, into.length - got, position + got).catch(readFailed);
    if (bytesRead === 0) return false;
    got += bytesRead;
  }
  return true;
}

/**
 * Reads the whole lines around `[start, end)` back from the file (they have usually left the read buffers by the
 * time the pass ends), widening the span until the lines the diff needs fit or the file's edges are reached.
 * Undefined when the file came up short (it shrank meanwhile).
 */
async function excerptFromFile(
  handle: FileHandle,
  size: number,
  start: number,
  end: number,
  floor: number,
  context: number,
): Promise<{ block: Buffer; blockStart: number; from: number; to: number } | undefined> {
  for (let span = EXCERPT_SPAN; ; span *= 4) {
    const blockStart = Math.max(0, start - span);
    const blockEnd = Math.min(size, end + span);
    const block = Buffer.allocUnsafe(blockEnd - blockStart);
    if (!(await readFully(handle, block, blockStart))) return undefined;
    const { from, to } = excerptBounds(
      block,
      start - blockStart,
      end - blockStart,
      Math.max(0, floor - blockStart),
      context,
    );
    const cutAbove = from === 0 && blockStart > floor;
    const cutBelow = to === block.length && blockEnd < size;
    if (!cutAbove && !cutBelow) return { block, blockStart, from, to };
  }
}
