import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { errnoCode, quotePath, type WorkspaceFailure, workspaceFailure } from './errors.js';
import { descriptorMoved, descriptorMovedSync } from './internal/fd-path.js';
import { applyIntent } from './internal/intent.js';
import { type ResolverContext, resolveDetail } from './internal/resolver.js';

/** An open, verified regular file inside the workspace; the caller must close `handle`. */
export interface OpenedFile {
  readonly success: true;
  /** The older name of `success`, kept for callers written against it. */
  readonly handle: FileHandle;
  /** Never set on an opened file: tells it apart from a {@link LoadedFile}. */
  readonly bytes?: undefined;
  readonly path: string;
  readonly relative: string;
  readonly size: number;
  readonly mode: number;
  readonly mtimeMs: number;
  /** Device and inode of the file opened: who writes it back later can check it is still the same file. */
  readonly dev: number;
  readonly ino: number;
}

/**
 * A verified regular file inside the workspace that was small enough to be read whole while it was open: the same
 * checks as an {@link OpenedFile}, and nothing is left open.
 */
export interface LoadedFile {
  readonly success: true;
  /** The file's bytes, from the start up to the size `fstat` gave when it was opened. */
  readonly bytes: Buffer;
  /** Never set on a loaded file: tells it apart from an {@link OpenedFile}. */
  readonly handle?: undefined;
  readonly path: string;
  readonly relative: string;
  /** Bytes read (the size `fstat` gave, less anything cut off before the read reached it). */
  readonly size: number;
  readonly mode: number;
  readonly mtimeMs: number;
  /** Device and inode of the file opened: who writes it back later can check it is still the same file. */
  readonly dev: number;
  readonly ino: number;
}

/** Options for {@link openReadIn}. */
export interface OpenReadOptions {
  /** Refuse (too_large) files bigger than this many bytes. */
  readonly maxBytes?: number;
}

/** Options for {@link openOrLoadIn}. */
export interface OpenOrLoadOptions extends OpenReadOptions {
  /** Files of at most this many bytes are read whole at once and come back as a {@link LoadedFile}. */
  readonly loadBytes: number;
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

const changed = (input: string) =>
  workspaceFailure(
    'changed_during_check',
    `${quotePath(input)} was replaced while it was being opened. Read it again; if this repeats, something is swapping the file.`,
  );

const openFailure = (input: string, error: unknown): WorkspaceFailure | 'retry' => {
  const code = errnoCode(error);
  if (code === 'ELOOP' || code === 'ENOENT') return 'retry';
  if (code === 'ENXIO') {
    return workspaceFailure('special_file', `${quotePath(input)} is a socket, not a regular file.`);
  }
  return workspaceFailure('io_error', `Could not open ${quotePath(input)} (${code ?? 'unknown error'}).`);
};

const tooLarge = (input: string, size: number, maxBytes: number) =>
  workspaceFailure(
    'too_large',
    `${quotePath(input)} is ${size} bytes, over the ${maxBytes}-byte limit. Read a smaller range or a different file.`,
  );

/**
 * The checks an opened descriptor must pass, shared by the synchronous and asynchronous ways of opening, in this
 * order: the descriptor is the inode the gate checked (`sameFile`, then the kernel's name for it, which the caller
 * asks in its own way), then `unfitFor` (a regular file, within `maxBytes`).
 */
const sameFile = (st: Stats, checked: { dev: number; ino: number } | undefined) =>
  checked !== undefined && st.dev === checked.dev && st.ino === checked.ino;

function unfitFor(input: string, st: Stats, options: OpenReadOptions): WorkspaceFailure | undefined {
  if (!st.isFile()) return workspaceFailure('special_file', `${quotePath(input)} is not a regular file.`);
  if (options.maxBytes !== undefined && st.size > options.maxBytes) return tooLarge(input, st.size, options.maxBytes);
  return undefined;
}

/**
 * Opens, checks and reads a small file without the thread pool: open, fstat, the kernel's name for the descriptor,
 * the read and the close are each answered from memory in microseconds for a file of a few pages, where a promise
 * form costs a thread-pool round trip apiece. The checks are those of the asynchronous path, in the same order.
 * 'open' when the file turned out bigger than `loadBytes` after all (it grew since the check): the caller opens it
 * the ordinary way.
 */
function loadSmall(
  input: string,
  detail: { path: string; relative: string; stat?: { dev: number; ino: number } },
  options: OpenOrLoadOptions,
): LoadedFile | WorkspaceFailure | 'retry' | 'open' {
  let fd: number;
  try {
    fd = openSync(detail.path, READ_FLAGS);
  } catch (error) {
    return openFailure(input, error);
  }
  try {
    const st = fstatSync(fd);
    if (!sameFile(st, detail.stat) || descriptorMovedSync(fd, detail.path)) return 'retry';
    const unfit = unfitFor(input, st, options);
    if (unfit) return unfit;
    if (st.size > options.loadBytes) return 'open';
    const bytes = Buffer.allocUnsafe(st.size);
    let length = 0;
    while (length < bytes.length) {
      const got = readSync(fd, bytes, length, bytes.length - length, length);
      if (got === 0) break;
      length += got;
    }
    return {
      success: true,
      bytes: length === bytes.length ? bytes : bytes.subarray(0, length),
      path: detail.path,
      relative: detail.relative,
      size: length,
      mode: st.mode,
      mtimeMs: st.mtimeMs,
      dev: st.dev,
      ino: st.ino,
    };
  } catch (error) {
    return workspaceFailure('io_error', `Could not read ${quotePath(input)} (${errnoCode(error) ?? 'unknown error'}).`);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // a read-only descriptor loses nothing when its close fails
    }
  }
}

async function attempt(
  ctx: ResolverContext,
  input: string,
  options: OpenReadOptions | OpenOrLoadOptions,
): Promise<OpenedFile | LoadedFile | WorkspaceFailure | 'retry'> {
  const resolved = await resolveDetail(ctx, input, 'read');
  if (!resolved.success) return resolved;
  const detail = applyIntent(resolved, input, 'read');
  if (!detail.success) return detail;
  if (detail.kind === 'directory') {
    return workspaceFailure('not_a_file', `${quotePath(input)} is a directory; list it instead of reading it.`);
  }
  // The size the check saw picks the way; the descriptor's own fstat has the last word either way.
  if ('loadBytes' in options && detail.stat && detail.stat.size <= options.loadBytes) {
    const loaded = loadSmall(input, { ...detail, stat: detail.stat }, options);
    if (loaded !== 'open') return loaded;
  }
  let handle: FileHandle;
  try {
    handle = await open(detail.path, READ_FLAGS);
  } catch (error) {
    return openFailure(input, error);
  }
  try {
    // fstat of a descriptor we hold answers from the inode already in memory: inline, not a thread-pool round trip.
    const st = fstatSync(handle.fd);
    if (!sameFile(st, detail.stat) || (await descriptorMoved(handle.fd, detail.path)) !== undefined) {
      await handle.close();
      return 'retry';
    }
    const unfit = unfitFor(input, st, options);
    if (unfit) {
      await handle.close();
      return unfit;
    }
    return {
      success: true,
      handle,
      path: detail.path,
      relative: detail.relative,
      size: st.size,
      mode: st.mode,
      mtimeMs: st.mtimeMs,
      dev: st.dev,
      ino: st.ino,
    };
  } catch (error) {
    await handle.close().catch(() => undefined);
    return workspaceFailure(
      'io_error',
      `Could not inspect ${quotePath(input)} (${errnoCode(error) ?? 'unknown error'}).`,
    );
  }
}

/** Opens a file for reading so that what is read is exactly the regular file that passed the checks. */
export async function openReadIn(
  ctx: ResolverContext,
  input: string,
  options: OpenReadOptions = {},
): Promise<OpenedFile | WorkspaceFailure> {
  for (let i = 0; i < ctx.limits.openAttempts; i++) {
    const result = await attempt(ctx, input, options);
    if (result !== 'retry') return result as OpenedFile | WorkspaceFailure;
  }
  return changed(input);
}

/**
 * {@link openReadIn}, except that a file of at most `loadBytes` is read whole at once (synchronously: a few pages of
 * a local file cost less than one thread-pool round trip) and comes back closed, as a {@link LoadedFile}. Bigger
 * files come back open, as from {@link openReadIn}; tell the two apart by `bytes` (or `handle`).
 */
export async function openOrLoadIn(
  ctx: ResolverContext,
  input: string,
  options: OpenOrLoadOptions,
): Promise<OpenedFile | LoadedFile | WorkspaceFailure> {
  for (let i = 0; i < ctx.limits.openAttempts; i++) {
    const result = await attempt(ctx, input, options);
    if (result !== 'retry') return result;
  }
  return changed(input);
}
