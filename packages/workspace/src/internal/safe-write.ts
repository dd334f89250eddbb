import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoCode, quotePath, type WorkspaceFailure, workspaceFailure } from '../errors.js';
import { descriptorMoved } from './fd-path.js';
import { type PinnedDir, pinDir } from './pinned-dir.js';

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

const ioFailure = (what: string, input: string, error: unknown) =>
  workspaceFailure('io_error', `${what} ${quotePath(input)} failed (${errnoCode(error) ?? 'unknown error'}).`);

/** Runs `work` with the target's parent held open by descriptor, so a swapped parent cannot redirect it. */
async function inParent<T>(
  target: string,
  input: string,
  work: (dir: PinnedDir, name: string) => Promise<T | WorkspaceFailure>,
): Promise<T | WorkspaceFailure> {
  const dir = await pinDir(dirname(target));
  if (!dir) return moved(input);
  try {
    return await work(dir, basename(target));
  } finally {
    await dir.close();
  }
}

/** Opens a new file exclusively and confirms the descriptor is where it was meant to be, undoing it otherwise. */
async function createIn(dir: PinnedDir, name: string, expected: string, mode: number): Promise<FileHandle | 'moved'> {
  const handle = await open(join(dir.prefix, name), CREATE_FLAGS, mode);
  const stray = await descriptorMoved(handle.fd, expected);
  if (stray === undefined) return handle;
  await handle.close();
  await unlink(stray).catch(() => undefined);
  return 'moved';
}

/** Creates a brand-new file; O_EXCL|O_NOFOLLOW means an existing file or a planted link is never opened. */
export async function createExclusive(
  target: string,
  data: Uint8Array,
  mode: number,
  input: string,
  hooks: WriteHooks = {},
): Promise<WorkspaceFailure | undefined> {
  await hooks.beforeCreate?.(target);
  return inParent(target, input, async (dir, name) => {
    let handle: FileHandle | 'moved';
    try {
      handle = await createIn(dir, name, target, mode);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'EEXIST' || code === 'ELOOP') {
        return workspaceFailure(
          'changed_during_check',
          `Something appeared at ${quotePath(input)} while it was being created; nothing was written. Read the path and retry.`,
        );
      }
      return ioFailure('Creating', input, error);
    }
    if (handle === 'moved') return moved(input);
    try {
      await writeAll(handle, data);
      await handle.close();
      return undefined;
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(join(dir.prefix, name)).catch(() => undefined);
      return ioFailure('Writing', input, error);
    }
  });
}

/**
 * Replaces an existing file by writing a temp file beside it and renaming over it: readers never see a half-written
 * file, the old mode is kept (minus setuid/setgid), and a hard link's other name (possibly outside) keeps its old inode untouched.
 */
export async function replaceAtomically(
  target: string,
  data: Uint8Array,
  keep: { mode: number; uid: number; gid: number },
  input: string,
  hooks: WriteHooks = {},
): Promise<WorkspaceFailure | undefined> {
  return inParent(target, input, async (dir, name) => {
    const tempName = `.bk-${randomBytes(6).toString('hex')}.tmp`;
    const temp = join(dir.prefix, tempName);
    let handle: FileHandle | 'moved';
    try {
      handle = await createIn(dir, tempName, join(dirname(target), tempName), 0o600);
    } catch (error) {
      return ioFailure('Creating a temporary file for', input, error);
    }
    if (handle === 'moved') return moved(input);
    try {
      // Like a write through the kernel, new content drops setuid/setgid: an edit must not leave a privileged binary.
      await handle.chmod(keep.mode & 0o1777);
      if (process.getuid?.() === 0) await handle.chown(keep.uid, keep.gid).catch(() => undefined);
      await writeAll(handle, data);
      await handle.close();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      return ioFailure('Writing', input, error);
    }
    try {
      await hooks.beforeRename?.(target, temp);
      await rename(temp, join(dir.prefix, name));
      return undefined;
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      return workspaceFailure(
        'io_error',
        `Could not put the new content of ${quotePath(input)} in place (${errnoCode(error) ?? 'unknown error'}); the file was left as it was.`,
      );
    }
  });
}
