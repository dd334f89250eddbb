import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** True where the kernel can name an open descriptor (`/proc/self/fd`), which is what makes a held directory exact. */
export const PROC_FD = process.platform === 'linux';

/** A gate-returned directory held open, so names are looked up in that very directory and not by path again. */
export interface HeldDir {
  readonly fd: number;
  /** Joined with a name to look it up inside the held directory. */
  readonly prefix: string;
  /** True when names are looked up through the descriptor itself (Linux); false when only by the checked path. */
  readonly exact: boolean;
}

/**
 * Opens `dir` (a real path the gate returned) without following a final link and proves the descriptor is that
 * directory: on Linux the kernel names the open directory (`/proc/self/fd`) and names are then looked up through the
 * descriptor, like `openat`; elsewhere the directory's identity by path must equal the descriptor's.
 */
export function holdDir(dir: string): HeldDir | undefined {
  let fd: number;
  try {
    fd = openSync(dir, DIR_FLAGS);
  } catch {
    return undefined;
  }
  try {
    if (PROC_FD) {
      if (readlinkSync(`/proc/self/fd/${fd}`) === dir) return { fd, prefix: `/proc/self/fd/${fd}`, exact: true };
    } else {
      const held = fstatSync(fd);
      const byPath = lstatSync(dir);
      if (held.isDirectory() && held.dev === byPath.dev && held.ino === byPath.ino) {
        return { fd, prefix: dir, exact: false };
      }
    }
  } catch {
    // fall through: not proven
  }
  closeSync(fd);
  return undefined;
}

/** lstat of `name` inside the held directory (undefined when it is not there or cannot be read). */
export function entryIn(held: HeldDir, name: string): Stats | undefined {
  try {
    return lstatSync(join(held.prefix, name), { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** A regular file opened by name inside a held directory; the caller closes `fd`. */
export interface HeldFile {
  readonly fd: number;
  readonly size: number;
}

/**
 * Opens `name` inside an exactly held directory the way the workspace gate opens files (no link followed, no blocking
 * on a FIFO) and keeps it only when the descriptor is a regular file of at most `maxBytes`. Synchronous: opening a
 * cached inode takes microseconds, a few times less than a thread-pool round trip. Undefined for anything else.
 */
export function openFileIn(held: HeldDir, name: string, maxBytes: number): HeldFile | undefined {
  if (!held.exact || name === '' || name.includes('/')) return undefined;
  let fd: number;
  try {
    fd = openSync(join(held.prefix, name), FILE_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (st.isFile() && st.size <= maxBytes) return { fd, size: st.size };
  } catch {
    // not inspectable: not used
  }
  closeSync(fd);
  return undefined;
}
