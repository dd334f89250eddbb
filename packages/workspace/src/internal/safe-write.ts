import { closeSync, constants, fchmodSync, fchownSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoCode, quotePath, type WorkspaceFailure, workspaceFailure } from '../errors.js';
import type { FillReplacement, ReplacementSink } from '../replacement.js';
import { descriptorMoved, descriptorMovedSync } from './fd-path.js';
import { type PinnedDir, pinDir } from './pinned-dir.js';
import { quietly } from './quietly.js';
import { renewTempPrefix, TEMP_CREATE_TRIES, tempFileName } from './temp-name.js';

/** Test seams that let a test stage a real race at an exact moment; production callers never pass them. */
export interface WriteHooks {
  beforeRename?: (target: string, temp: string) => Promise<void> | void;
  beforeCreate?: (target: string) => Promise<void> | void;
}

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

async function writeAt(handle: FileHandle, data: Uint8Array, position: number): Promise<void> {
  let offset = 0;
  while (offset < data.byteLength) {
    const { bytesWritten } = await handle.write(data, offset, data.byteLength - offset, position + offset);
    offset += bytesWritten;
  }
}

async function writeAll(handle: FileHandle, data: Uint8Array, durable: boolean): Promise<void> {
  await writeAt(handle, data, 0);
  if (durable) await handle.sync();
}

const moved = (input: string) =>
  workspaceFailure(
    'changed_during_check',
    `A directory on the way to ${quotePath(input)} changed while writing; nothing was written. Retry.`,
  );

const ioFailure = (what: string, input: string, error: unknown) =>
  workspaceFailure('io_error', `${what} ${quotePath(input)} failed (${errnoCode(error) ?? 'unknown error'}).`);

const notPlaced = (input: string, error: unknown) =>
  workspaceFailure(
    'io_error',
    `Could not put the new content of ${quotePath(input)} in place (${errnoCode(error) ?? 'unknown error'}); the file was left as it was.`,
  );

/** After a failed create: rethrows unless the name was taken and tries remain, else draws a new prefix to retry. */
function afterTakenName(error: unknown, tries: number): void {
  if (errnoCode(error) !== 'EEXIST' || tries >= TEMP_CREATE_TRIES) throw error;
  renewTempPrefix();
}

/**
 * Creates a replacement's temp file beside `target` under a fresh name (temp-name.ts): a name that is taken (planted
 * by someone who guessed it) is never opened, and the next try draws a new random prefix.
 */
function withTempName<T>(create: (name: string) => T): { name: string; made: T } {
  for (let tries = 1; ; tries++) {
    const name = tempFileName();
    try {
      return { name, made: create(name) };
    } catch (error) {
      afterTakenName(error, tries);
    }
  }
}

/** {@link withTempName} for an asynchronous create. */
async function withTempNameAsync<T>(create: (name: string) => Promise<T>): Promise<{ name: string; made: T }> {
  for (let tries = 1; ; tries++) {
    const name = tempFileName();
    try {
      return { name, made: await create(name) };
    } catch (error) {
      afterTakenName(error, tries);
    }
  }
}

/**
 * Gives a replacement's temp file the old file's mode and (when running as root) owner, minus setuid/setgid: like a
 * write through the kernel, new content must not leave a privileged binary. fchmod and fchown on a descriptor only
 * touch the inode in memory, so both ways of replacing call them inline. Keeping the owner is best effort.
 */
function keepModeAndOwner(fd: number, keep: { mode: number; uid: number; gid: number }): void {
  fchmodSync(fd, keep.mode & 0o1777);
  if (process.getuid?.() === 0) quietly(() => fchownSync(fd, keep.uid, keep.gid));
}

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

/**
 * New content up to this size, when it need not be flushed to disk, is written with synchronous calls: creating,
 * writing a few pages into the page cache, closing and renaming each take microseconds, where each promise form costs
 * a thread-pool round trip. Bigger or durable writes stay asynchronous (an fsync takes milliseconds).
 */
const SYNC_WRITE_BYTES = 256 * 1024;

const inlineWrite = (data: Uint8Array, durable: boolean, hooks: WriteHooks) =>
  !durable && data.byteLength <= SYNC_WRITE_BYTES && hooks.beforeRename === undefined;

function writeAllSync(fd: number, data: Uint8Array): void {
  let offset = 0;
  while (offset < data.byteLength) offset += writeSync(fd, data, offset, data.byteLength - offset, offset);
}

/** {@link createIn} with synchronous calls: the new file's descriptor, or 'moved' (undone) when it is elsewhere. */
function createInSync(dir: PinnedDir, name: string, expected: string, mode: number): number | 'moved' {
  const fd = openSync(join(dir.prefix, name), CREATE_FLAGS, mode);
  if (!descriptorMovedSync(fd, expected)) return fd;
  quietly(() => closeSync(fd));
  quietly(() => unlinkSync(join(dir.prefix, name)));
  return 'moved';
}

/** {@link createExclusive}'s work in the held parent, done synchronously (small, not durable). */
function createExclusiveSync(
  dir: PinnedDir,
  name: string,
  target: string,
  data: Uint8Array,
  mode: number,
  input: string,
): WorkspaceFailure | undefined {
  let fd: number | 'moved';
  try {
    fd = createInSync(dir, name, target, mode);
  } catch (error) {
    return createFailure(input, error);
  }
  if (fd === 'moved') return moved(input);
  try {
    writeAllSync(fd, data);
  } catch (error) {
    quietly(() => closeSync(fd));
    quietly(() => unlinkSync(join(dir.prefix, name)));
    return ioFailure('Writing', input, error);
  }
  try {
    // Closed once whatever happens: a failed close still releases the number, which another open may reuse.
    closeSync(fd);
    return undefined;
  } catch (error) {
    quietly(() => unlinkSync(join(dir.prefix, name)));
    return ioFailure('Writing', input, error);
  }
}

function createFailure(input: string, error: unknown): WorkspaceFailure {
  const code = errnoCode(error);
  if (code === 'EEXIST' || code === 'ELOOP') {
    return workspaceFailure(
      'changed_during_check',
      `Something appeared at ${quotePath(input)} while it was being created; nothing was written. Read the path and retry.`,
    );
  }
  return ioFailure('Creating', input, error);
}

/** Creates a brand-new file; O_EXCL|O_NOFOLLOW means an existing file or a planted link is never opened. */
export async function createExclusive(
  target: string,
  data: Uint8Array,
  mode: number,
  input: string,
  durable: boolean,
  hooks: WriteHooks = {},
): Promise<WorkspaceFailure | undefined> {
  await hooks.beforeCreate?.(target);
  return inParent(target, input, async (dir, name) => {
    if (inlineWrite(data, durable, hooks)) return createExclusiveSync(dir, name, target, data, mode, input);
    let handle: FileHandle | 'moved';
    try {
      handle = await createIn(dir, name, target, mode);
    } catch (error) {
      return createFailure(input, error);
    }
    if (handle === 'moved') return moved(input);
    try {
      await writeAll(handle, data, durable);
      await handle.close();
      return undefined;
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(join(dir.prefix, name)).catch(() => undefined);
      return ioFailure('Writing', input, error);
    }
  });
}

/** A sink write that went wrong, carried out of the filler so the replacement can report it as a failure value. */
class SinkFailure extends Error {
  constructor(readonly failure: WorkspaceFailure) {
    super(failure.error);
  }
}

/** How a replacement is checked and bounded beyond the filler itself. */
export interface ReplaceControls {
  /** Largest allowed end position of any write (the workspace's `maxWriteBytes`). */
  maxBytes: number;
  /** Runs once the new content is written (and flushed when `durable`), just before the rename; false abandons it. */
  confirm?: () => Promise<boolean>;
  /**
   * Takes the target's lock once the content is written; `confirm` and the rename then run while it is held, and it
   * is released right after (a caller already holding it leaves this out).
   */
  lock?: () => Promise<() => void>;
  /** fsync the temp file before the rename (the workspace's `durable` option). */
  durable: boolean;
  /**
   * With `durable`: once this many bytes have landed since the last one, the next write also starts a data sync in
   * the background, so the disk works while the filler does; the final fsync then only has the tail to flush.
   * Default: never.
   */
  syncStepBytes?: number;
}

/**
 * Replaces an existing file with content written by `fill` into a temp file beside it, then (when `durable`) fsync, and rename: readers
 * never see a half-written file, the old mode is kept (minus setuid/setgid), and a hard link's other name (possibly
 * outside) keeps its old inode untouched. Resolves to the size written, `'abandoned'` when `fill` or `confirm` said
 * no, or a failure; an exception thrown by `fill` itself is passed on after the temp file is removed.
 */
export async function replaceWith(
  target: string,
  fill: FillReplacement,
  keep: { mode: number; uid: number; gid: number },
  input: string,
  controls: ReplaceControls,
  hooks: WriteHooks = {},
): Promise<number | 'abandoned' | WorkspaceFailure> {
  return inParent(target, input, async (dir, name) => {
    let tempName: string;
    let handle: FileHandle | 'moved';
    try {
      ({ name: tempName, made: handle } = await withTempNameAsync((temp) =>
        createIn(dir, temp, join(dirname(target), temp), 0o600),
      ));
    } catch (error) {
      return ioFailure('Creating a temporary file for', input, error);
    }
    const temp = join(dir.prefix, tempName);
    if (handle === 'moved') return moved(input);
    const file = handle;
    const inFlight = new Set<Promise<void>>();
    let size = 0;
    let landed = 0; // bytes written since the last background sync started
    let syncing = false;
    const track = (work: Promise<void>) => {
      inFlight.add(work);
      // Settled work leaves the set; a rejection is still seen by whoever awaits `work`, and by the check below.
      work.then(
        () => inFlight.delete(work),
        () => undefined,
      );
    };
    // A refused write spoils the whole replacement even if the filler ignores the rejection.
    let refused: SinkFailure | undefined;
    const sink: ReplacementSink = {
      write(data, position) {
        const end = position + data.byteLength;
        if (!Number.isSafeInteger(position) || position < 0 || end > controls.maxBytes) {
          refused ??= new SinkFailure(
            workspaceFailure(
              'too_large',
              `The new content of ${quotePath(input)} would pass the ${controls.maxBytes}-byte write limit; nothing was written.`,
            ),
          );
          const rejection = Promise.reject(refused);
          rejection.catch(() => undefined);
          return rejection;
        }
        size = Math.max(size, end);
        if (!syncing && controls.durable && controls.syncStepBytes !== undefined && landed >= controls.syncStepBytes) {
          syncing = true;
          landed = 0;
          const sync = file
            .datasync()
            .catch((error: unknown) => {
              throw new SinkFailure(ioFailure('Writing', input, error));
            })
            .finally(() => {
              syncing = false;
            });
          sync.catch(() => undefined);
          track(sync);
        }
        const work = writeAt(file, data, position).then(
          () => {
            landed += data.byteLength;
          },
          (error: unknown) => {
            throw new SinkFailure(ioFailure('Writing', input, error));
          },
        );
        track(work);
        return work;
      },
    };
    const discard = async () => {
      await Promise.allSettled([...inFlight]);
      await file.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
    };
    let keepIt: boolean;
    let release: (() => void) | undefined;
    try {
      keepModeAndOwner(file.fd, keep);
      keepIt = await fill(sink);
      const outcomes = await Promise.allSettled([...inFlight]);
      const failed = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      if (refused) throw refused;
      if (keepIt) {
        if (controls.durable) await file.sync();
        await file.close();
        release = await controls.lock?.();
      }
      if (keepIt && controls.confirm) keepIt = await controls.confirm();
    } catch (error) {
      release?.();
      await discard();
      if (error instanceof SinkFailure) return error.failure;
      if (errnoCode(error) !== undefined) return ioFailure('Writing', input, error);
      throw error;
    }
    if (!keepIt) {
      release?.();
      await discard();
      return 'abandoned';
    }
    try {
      await hooks.beforeRename?.(target, temp);
      await rename(temp, join(dir.prefix, name));
      return size;
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      return notPlaced(input, error);
    } finally {
      release?.();
    }
  });
}

/**
 * Replaces an existing file with `data` through {@link replaceWith}: a temp file beside it, fsync when `durable`, then
 * rename.
 */
export async function replaceAtomically(
  target: string,
  data: Uint8Array,
  keep: { mode: number; uid: number; gid: number },
  input: string,
  durable: boolean,
  hooks: WriteHooks = {},
): Promise<WorkspaceFailure | undefined> {
  if (inlineWrite(data, durable, hooks))
    return inParent(target, input, async (dir, name) => replaceSync(dir, name, target, data, keep, input));
  const fill: FillReplacement = async (sink) => {
    await sink.write(data, 0);
    return true;
  };
  const done = await replaceWith(target, fill, keep, input, { maxBytes: Number.MAX_SAFE_INTEGER, durable }, hooks);
  return typeof done === 'number' || done === 'abandoned' ? undefined : done;
}

/**
 * {@link replaceAtomically}'s work in the held parent, done synchronously (small, not durable): the same temp file
 * beside the target, the same mode and owner kept, the same rename; the temp file is removed whenever a step fails.
 */
function replaceSync(
  dir: PinnedDir,
  name: string,
  target: string,
  data: Uint8Array,
  keep: { mode: number; uid: number; gid: number },
  input: string,
): WorkspaceFailure | undefined {
  let tempName: string;
  let fd: number | 'moved';
  try {
    ({ name: tempName, made: fd } = withTempName((temp) =>
      createInSync(dir, temp, join(dirname(target), temp), 0o600),
    ));
  } catch (error) {
    return ioFailure('Creating a temporary file for', input, error);
  }
  const temp = join(dir.prefix, tempName);
  if (fd === 'moved') return moved(input);
  try {
    keepModeAndOwner(fd, keep);
    writeAllSync(fd, data);
  } catch (error) {
    quietly(() => closeSync(fd));
    quietly(() => unlinkSync(temp));
    return ioFailure('Writing', input, error);
  }
  try {
    // Closed once whatever happens: a failed close still releases the number, which another open may reuse.
    closeSync(fd);
  } catch (error) {
    quietly(() => unlinkSync(temp));
    return ioFailure('Writing', input, error);
  }
  try {
    renameSync(temp, join(dir.prefix, name));
    return undefined;
  } catch (error) {
    quietly(() => unlinkSync(temp));
    return notPlaced(input, error);
  }
}
