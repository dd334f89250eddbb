import { constants, type Dirent } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { errnoCode } from '../errors.js';
import { descriptorPath } from './fd-path.js';

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Lists a directory only if `path` is still the real, link-free directory that was checked: it is opened without
 * following links and, on Linux, listed through its descriptor so a swap after the check cannot redirect the listing.
 */
export async function readDirPinned(path: string): Promise<Dirent[] | { error: string }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, DIR_FLAGS);
  } catch (error) {
    return { error: errnoCode(error) ?? 'EIO' };
  }
  try {
    const before = await handle.stat();
    if (!before.isDirectory()) return { error: 'ENOTDIR' };
    const real = await descriptorPath(handle.fd);
    if (real !== undefined) {
      if (real !== path) return { error: 'ECHANGED' };
      return await readdir(`/proc/self/fd/${handle.fd}`, { withFileTypes: true });
    }
    const entries = await readdir(path, { withFileTypes: true });
    const after = await lstat(path);
    if (after.dev !== before.dev || after.ino !== before.ino) return { error: 'ECHANGED' };
    return entries;
  } catch (error) {
    return { error: errnoCode(error) ?? 'EIO' };
  } finally {
    await handle.close().catch(() => undefined);
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
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(realDir, DIR_FLAGS);
  } catch {
    return undefined;
  }
  const close = () => handle.close().catch(() => undefined);
  const real = await descriptorPath(handle.fd);
  if (real !== undefined && real !== realDir) {
    await close();
    return undefined;
  }
  return { prefix: real === undefined ? realDir : `/proc/self/fd/${handle.fd}`, close };
}
