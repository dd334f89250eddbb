import { type BigIntStats, closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync } from 'node:fs';
import { descriptorMovedSync } from './internal/fd-path.js';

/**
 * One version of one file as the kernel knows it: device, inode, size, modification and status-change times (both in
 * nanoseconds), joined into a string. Every write, truncate, rename over the file or `utimes` moves the change time
 * forward and nobody can set it back, so two equal stamps mean the same file with the same bytes, provided the file
 * had settled first (see {@link stampSettled}). Taken with one synchronous `stat`, which answers from the inode cache
 * in microseconds where a read, or the promise form of `stat`, costs a thread-pool round trip.
 */
export type FileStamp = string;

/**
 * How long a file must have gone unchanged before its stamp is trusted. File times advance one clock tick at a time
 * (a few milliseconds), so a second write of the same size within the tick of the first leaves the stamp as it was;
 * a file whose last change is older than this cannot still be inside that tick.
 */
export const FILE_STAMP_SETTLE_MS = 50;

/** The stamp of a file's `stat` (taken with `{ bigint: true }`, from a path or an open descriptor). */
export function stampOfStats(st: BigIntStats): FileStamp {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/**
 * The stamp of the regular file at `path`, or undefined for anything else (missing, a directory, unreadable). A link
 * in the last component is not followed unless `follow` is set, so a file swapped for a link gets no stamp.
 */
export function fileStamp(path: string, options: { readonly follow?: boolean } = {}): FileStamp | undefined {
  try {
    const how = { bigint: true, throwIfNoEntry: false } as const;
    const st = options.follow ? statSync(path, how) : lstatSync(path, how);
    return st?.isFile() ? stampOfStats(st) : undefined;
  } catch {
    return undefined;
  }
}

/** The size and status-change time (nanoseconds) a stamp records. */
export function stampParts(stamp: FileStamp): { readonly size: bigint; readonly ctimeNs: bigint } {
  const [, , size = '0', , ctime = '0'] = stamp.split(':');
  return { size: BigInt(size), ctimeNs: BigInt(ctime) };
}

/**
 * Whether a stamp can be trusted to tell this version of the file from the next: its last change happened at least
 * {@link FILE_STAMP_SETTLE_MS} before `beforeMs` (default now; pass the time a read started to also cover writes
 * made during the read). False on a filesystem whose times have no sub-second part, where one tick is a second.
 */
export function stampSettled(stamp: FileStamp, beforeMs: number = Date.now()): boolean {
  const { ctimeNs } = stampParts(stamp);
  if (ctimeNs % 1_000_000_000n === 0n) return false;
  return ctimeNs <= BigInt(Math.floor(beforeMs - FILE_STAMP_SETTLE_MS)) * 1_000_000n;
}

/**
 * Reads again, synchronously, a file the workspace gate already let through at its real path `realPath`, when that
 * is still exactly the path the file lies at: opened without following a link in its last component, the kernel's
 * name for the descriptor must be `realPath` itself (no link, no moved directory on the way) and it must be a regular
 * file of at most `maxBytes`. The gate's verdict depends only on that path, so it still holds; anything else gives
 * undefined and the caller goes through the gate. Linux only (elsewhere nothing can confirm the descriptor's path).
 * The stamp is the descriptor's before the read, and is only returned when the read saw no change.
 */
export function rereadAllowedFile(
  realPath: string,
  maxBytes: number,
): { readonly text: string; readonly stamp: FileStamp } | undefined {
  if (process.platform !== 'linux') return undefined;
  let fd: number;
  try {
    fd = openSync(realPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const before = fstatSync(fd, { bigint: true });
    if (!before.isFile() || before.size > BigInt(maxBytes) || descriptorMovedSync(fd, realPath)) return undefined;
    const bytes = Buffer.allocUnsafe(Number(before.size));
    let length = 0;
    while (length < bytes.length) {
      const got = readSync(fd, bytes, length, bytes.length - length, length);
      if (got === 0) break;
      length += got;
    }
    const stamp = stampOfStats(before);
    if (length !== bytes.length || stampOfStats(fstatSync(fd, { bigint: true })) !== stamp) return undefined;
    return { text: bytes.toString('utf8'), stamp };
  } catch {
    return undefined;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // a read-only descriptor loses nothing when its close fails
    }
  }
}
