import { closeSync, constants, type Dirent, fstatSync, lstatSync, openSync, readdirSync, readlinkSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { errnoCode } from '../errors.js';
import { quietly } from './quietly.js';

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
// Where the kernel can name an open descriptor, which is what makes a held directory exact.
const PROC_FD = process.platform === 'linux';
/**
 * A directory whose own size is at most this many bytes is listed synchronously when the caller allows it. The size
 * of a directory bounds its listing (ext4 counts the blocks of its entries, tmpfs 20 bytes per entry), so this is a
 * few hundred names at most: listed in tens of microseconds, less than the thread-pool round trip it saves.
 */
const SYNC_LIST_BYTES = 16 * 1024;

/**
 * Lists a directory only if `path` is still the real, link-free directory that was checked: it is opened and proven
 * by {@link openProvenDir} and, on Linux, listed through its descriptor so a swap after the check cannot redirect the
 * listing; elsewhere it is listed by path and must still be the directory that was opened afterwards. `allowSync`:
 * on Linux a small directory is listed synchronously (for a caller that lists one directory, not a whole tree).
 */
export async function readDirPinned(path: string, allowSync = false): Promise<Dirent[] | { error: string }> {
  // Opening a directory, proving it and closing it are metadata calls the kernel answers from memory; done
  // synchronously they cost microseconds where each thread-pool round trip costs two context switches. The listing
  // itself stays asynchronous unless the caller allows otherwise and the directory is small (SYNC_LIST_BYTES).
  const held = openProvenDir(path);
  if (!held) return { error: 'ECHANGED' };
  return readHeldDir(held, path, allowSync);
}

/**
 * Lists the directory `held` (from {@link openProvenDir} of `path`) and closes it, whatever happens: through its
 * descriptor on Linux, by path elsewhere with a check that `path` is still that directory afterwards.
 */
export async function readHeldDir(
  held: ProvenDir,
  path: string,
  allowSync = false,
): Promise<Dirent[] | { error: string }> {
  try {
    const before = fstatSync(held.fd);
    if (held.prefix !== path) {
      if (allowSync && before.size <= SYNC_LIST_BYTES) return readdirSync(held.prefix, { withFileTypes: true });
      return await readdir(held.prefix, { withFileTypes: true });
    }
    const entries = await readdir(path, { withFileTypes: true });
    const after = await lstat(path);
    if (after.dev !== before.dev || after.ino !== before.ino) return { error: 'ECHANGED' };
    return entries;
  } catch (error) {
    return { error: errnoCode(error) ?? 'EIO' };
  } finally {
    // the listing already has what it needs; a failed close of a read-only directory loses nothing
    quietly(() => closeSync(held.fd));
  }
}

/** A directory descriptor proven by {@link openProvenDir}, and the prefix names inside it are reached through. */
export interface ProvenDir {
  readonly fd: number;
  /** `/proc/self/fd/N` on Linux (an openat equivalent), the directory's own path elsewhere. */
  readonly prefix: string;
}

/** True when {@link openProvenDir} proves a directory by the kernel's name for its descriptor (Linux). */
export const PROVEN_BY_NAME = PROC_FD;

/**
 * Opens `dir` without following a final link and proves the descriptor is that directory: on Linux the kernel's name
 * for the open descriptor (`/proc/self/fd`) must be `dir`, and names are then looked up through the descriptor (an
 * `openat` equivalent); elsewhere the descriptor and the path must be the same directory (device and inode). The one
 * verified directory open of the package: {@link readDirPinned}, {@link pinDir} and `Workspace.holdDirSync` stand on it. The caller
 * closes `fd`; undefined (nothing left open) when `dir` cannot be opened or proven.
 */
export function openProvenDir(dir: string): ProvenDir | undefined {
  let fd: number;
  try {
    fd = openSync(dir, DIR_FLAGS); // synchronous: see readDirPinned
  } catch {
    return undefined;
  }
  try {
    if (PROC_FD) {
      if (readlinkSync(`/proc/self/fd/${fd}`) === dir) return { fd, prefix: `/proc/self/fd/${fd}` };
    } else {
      const held = fstatSync(fd);
      const byPath = lstatSync(dir);
      if (held.isDirectory() && held.dev === byPath.dev && held.ino === byPath.ino) return { fd, prefix: dir };
    }
  } catch {
    // not proven: released below
  }
  closeSync(fd);
  return undefined;
}

/** A directory held open so later operations address it by descriptor rather than by a path that could be swapped. */
export interface PinnedDir {
  /** Prefix to join names onto: `/proc/self/fd/N` on Linux (an openat equivalent), the real path elsewhere. */
  readonly prefix: string;
  close(): Promise<void>;
}

/**
 * Opens `realDir` without following a final link and proves the descriptor is that exact directory
 * ({@link openProvenDir}); returns undefined when it is not, meaning something on the way was swapped after the check.
 */
export async function pinDir(realDir: string): Promise<PinnedDir | undefined> {
  const held = openProvenDir(realDir);
  if (!held) return undefined;
  let open = true;
  const close = async () => {
    if (!open) return;
    open = false;
    try {
      closeSync(held.fd);
    } catch {
      // nothing was written through the directory descriptor itself; a failed close loses nothing
    }
  };
  return { prefix: held.prefix, close };
}
