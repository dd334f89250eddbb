import { createHash } from 'node:crypto';
import { RowBuilder, type WindowResult } from './row-builder.js';

// Keeps a U+FEFF where it stands: the streamed path drops one at the start of each line it decodes, so a text that
// holds one anywhere is left to that path rather than answered differently here.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A window of a file whose bytes are all in memory, with the totals and the hash a full scan gives. */
export interface LoadedWindow extends WindowResult {
  totalLines: number;
  sha256: string;
}

/**
 * The window of a small file read whole, worked out on its text decoded once instead of line by line: the same rows,
 * totals and hash as `streamWindow` with a full scan. Undefined whenever the answers could differ, and the caller
 * streams instead: bytes that are not valid UTF-8 (the streamed path says where the first bad one is), a U+FEFF in
 * the text, or a shown line longer than `maxLineChars` (the streamed path cuts those in bytes first).
 */
export function loadedWindow(
  bytes: Buffer,
  start: number,
  offset: number,
  limit: number,
  maxLineChars: number,
  maxOutputBytes: number,
): LoadedWindow | undefined {
  let text: string;
  try {
    text = strict.decode(bytes.subarray(start));
  } catch {
    return undefined;
  }
  if (text.includes('\uFEFF')) return undefined;
  // Rows hold at most the file's bytes plus a number, a tab and a line break each: when even that fits the cap,
  // no row can reach it and their sizes need not be counted.
  const rowsAtMost = Math.min(limit, text.length + 1);
  const bound = bytes.length - start + rowsAtMost * (String(offset + limit).length + 2);
  const builder = new RowBuilder(offset, limit, maxLineChars, maxOutputBytes, bound > maxOutputBytes);
  let index = 0;
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    if (!builder.done && !builder.before(index)) {
      if (end - at > maxLineChars) return undefined;
      builder.add(index, text.slice(at, end));
    }
    index++;
    if (nl < 0) break;
    at = nl + 1;
  }
  return {
    ...builder.finish(index),
    totalLines: index,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}
