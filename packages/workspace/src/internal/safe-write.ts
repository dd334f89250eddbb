import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errnoCode, quotePath, type WorkspaceFailure, workspaceFailure } from '../errors.js';
import { descriptorMoved } from './fd-path.js';

/** Test seams that let a test stage a real race at an exact moment; production callers never pass them. */
export interface WriteHooks {
  beforeRename?: (target: string, temp: string) => Promise<void> | void;
  beforeCreate?: (target: string) => Promise<void> | void;
}

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

async function writeAll(handle: FileHandle, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.byteLength) {
    const { bytesWritten } = await handle.write(data, offset, data.byteLength - offset, offset);
    offset += bytesWritten;
  }
  await handle.sync();
}

const moved = (input: string) =>
  workspaceFailure(
    'changed_during_check',
    `A directory on the way to ${quotePath(input)} changed while writing; nothing was written. Retry.`,
  );

/** Creates a brand-new file; O_EXCL|O_NOFOLLOW means an existing file or a planted link is never opened. */
export async function createExclusive(
  target: string,
  data: Uint8Array,
  mode: number,
  input: string,
  hooks: WriteHooks = {},
): Promise<WorkspaceFailure | undefined> {
  await hooks.beforeCreate?.(target);
  let handle: FileHandle;
  try {
    handle = await open(target, CREATE_FLAGS, mode);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST' || code === 'ELOOP') {
      return workspaceFailure(
        'changed_during_check',
        `Something appeared at ${quotePath(input)} while it was being created; nothing was written. Read the path and retry.`,
      );
    }
    return workspaceFailure('io_error', `Could not create ${quotePath(input)} (${code ?? 'unknown error'}).`);
  }
  if (await descriptorMoved(handle.fd, target)) {
    await handle.close();
    await unlink(target).catch(() => undefined);
    return moved(input);
  }
  try {
    await writeAll(handle, data);
    await handle.close();
    return undefined;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(target).catch(() => undefined);
    return workspaceFailure('io_error', `Writing ${quotePath(input)} failed (${errnoCode(error) ?? 'unknown error'}).`);
  }
}

/**
 * Replaces an existing file by writing a temp file beside it and renaming over it: readers never see a half-written
 * file, the old mode is kept, and a hard link's other name (possibly outside) keeps its old inode untouched.
 */
export async function replaceAtomically(
  target: string,
  data: Uint8Array,
  keep: { mode: number; uid: number; gid: number },
  input: string,
  hooks: WriteHooks = {},
): Promise<WorkspaceFailure | undefined> {
  const temp = join(dirname(target), `.bk-${randomBytes(6).toString('hex')}.tmp`);
  let handle: FileHandle;
  try {
    handle = await open(temp, CREATE_FLAGS, 0o600);
  } catch (error) {
    return workspaceFailure(
      'io_error',
      `Could not create a temporary file next to ${quotePath(input)} (${errnoCode(error) ?? 'unknown error'}).`,
    );
  }
  const cleanup = async () => {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
  };
  if (await descriptorMoved(handle.fd, temp)) {
    await cleanup();
    return moved(input);
  }
  try {
    await handle.chmod(keep.mode & 0o7777);
    if (process.getuid?.() === 0) await handle.chown(keep.uid, keep.gid).catch(() => undefined);
    await writeAll(handle, data);
    await handle.close();
  } catch (error) {
    await cleanup();
    return workspaceFailure('io_error', `Writing ${quotePath(input)} failed (${errnoCode(error) ?? 'unknown error'}).`);
  }
  try {
    await hooks.beforeRename?.(target, temp);
    await rename(temp, target);
    return undefined;
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    return workspaceFailure(
      'io_error',
      `Could not put the new content of ${quotePath(input)} in place (${errnoCode(error) ?? 'unknown error'}); the file was left as it was.`,
    );
  }
}
