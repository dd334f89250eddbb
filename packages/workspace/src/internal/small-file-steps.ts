import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  type Stats,
  writeSync,
} from 'node:fs';

/**
 * Largest content a transaction writes, and largest expected content it re-reads, with synchronous calls. A small
 * file's open, write, read, link and rename are answered by the kernel from memory in microseconds, while each call
 * through the thread pool costs two context switches (a millisecond apiece on a busy machine): a patch of a few
 * source files spent ten times longer waiting for the pool than working. Larger files keep the asynchronous calls.
 * Editors read files up to the same size synchronously (`Workspace.openOrLoad`), so what they load, the transaction
 * writes back the same way.
 */
export const SYNC_FILE_BYTES = 1024 * 1024;

/**
 * Writes `data` to a new file `path` opened with `flags` and sets `mode` when given; `opened` is called once the file
 * exists (so the caller can remove it if a later step fails).
 */
export function writeNewSync(
  path: string,
  flags: number,
  data: Uint8Array,
  mode: number | undefined,
  opened: () => void,
): void {
  const fd = openSync(path, flags, mode === undefined ? 0o666 : 0o600);
  opened();
  try {
    if (mode !== undefined) fchmodSync(fd, mode & 0o1777);
    let offset = 0;
    while (offset < data.byteLength) offset += writeSync(fd, data, offset, data.byteLength - offset, offset);
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether `path` is still the regular file `stat` named (same device and inode, no link followed) and holds exactly
 * `expected`. Reads at most one byte more than expected, so a grown file is told apart without reading all of it.
 */
export function sameFileSync(path: string, stat: Stats, expected: Uint8Array): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    const now = fstatSync(fd);
    if (!now.isFile() || now.dev !== stat.dev || now.ino !== stat.ino || now.size !== expected.byteLength) return false;
    const buffer = Buffer.allocUnsafe(expected.byteLength + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, buffer, got, buffer.length - got, got);
      if (n === 0) break;
      got += n;
      if (got === buffer.length) break;
    }
    return got === expected.byteLength && buffer.subarray(0, got).equals(expected);
  } finally {
    closeSync(fd);
  }
}

/** Whether anything (a file, a link, a directory) is at `path`, without following a link; an error reads as nothing. */
export function existsSync(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
