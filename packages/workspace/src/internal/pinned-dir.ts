import { closeSync, constants, type Dirent, fstatSync, openSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { errnoCode } from '../errors.js';
import { descriptorPath } from './fd-path.js';

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Lists a directory only if `path` is still the real, link-free directory that was checked: it is opened without
 * following links and, on Linux, listed through its descriptor so a swap after the check cannot redirect the listing.
 */
export async function readDirPinned(path: string): Promise<Dirent[] | { error: string }> {
  // Opening a directory, fstat of the descriptor and close are metadata calls the kernel answers from memory; done
  // synchronously they cost microseconds where each thread-pool round trip costs two context switches. Only the
  // listing itself, whose size the caller does not control, stays asynchronous.
  let fd: number;
  try {
    fd = openSync(path, DIR_FLAGS);
  } catch (error) {
    return { error: errnoCode(error) ?? 'EIO' };
  }
  try {
    const before = fstatSync(fd);
    if (!before.isDirectory()) return { error: 'ENOTDIR' };
    const real = await descriptorPath(fd);
    if (real !== undefined) {
      if (real !== path) return { error: 'ECHANGED' };
      return await readdir(`/proc/self/fd/${fd}`, { withFileTypes: true });
    }
    const entries = await readdir(path, { withFileTypes: true });
    const after = await lstat(path);
    if (after.dev !== before.dev || after.ino !== before.ino) return { error: 'ECHANGED' };
    return entries;
  } catch (error) {
    return { error: errnoCode(error) ?? 'EIO' };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // the listing already has what it needs; a failed close of a read-only directory loses nothing
    }
  }
}

/** A directory held open so later operations address it by descriptor rather than by a path that could be swapped. */
export interface PinnedDir {
  /** Prefix to join names onto: `/proc/self/fd/N` on Linux (an openat equivalent), the real path elsewhere. */
  readonly prefix: string;
  close(): Promise<void>;
}

/**
 * Opens `realDir` without following a final link and confirms (on Linux) that the descriptor is that exact directory;
 * returns undefined when it is not, meaning something on the way was swapped after the check.
 */
export async function pinDir(realDir: string): Promise<PinnedDir | undefined> {
  let fd: number;
  try {
    fd = openSync(realDir, DIR_FLAGS); // synchronous for the same reason as in readDirPinned
  } catch {
    return undefined;
  }
  let open = true;
  const close = async () => {
    if (!open) return;
    open = false;
    try {
      closeSync(fd);
    } catch {
      // nothing was written through the directory descriptor itself; a failed close loses nothing
    }
  };
  const real = await descriptorPath(fd);
  if (real !== undefined && real !== realDir) {
    await close();
    return undefined;
  }
  return { prefix: real === undefined ? realDir : `/proc/self/fd/${fd}`, close };
}
