import { readSync } from 'node:fs';
import { type PendingMatch, RG_CUT_MARKER, shownPart } from './pending-match.js';
import { isUtf16Bom } from './read-lines.js';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

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
export function startsWithBom(handle: { readonly fd: number }): boolean {
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
export function heldAtOffset(handle: { readonly fd: number }, size: number, match: PendingMatch): boolean {
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
