import { constants, fstatSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { errnoCode, quotePath, type WorkspaceFailure, workspaceFailure } from './errors.js';
import { descriptorMoved } from './internal/fd-path.js';
import { applyIntent } from './internal/intent.js';
import { type ResolverContext, resolveDetail } from './internal/resolver.js';

/** An open, verified regular file inside the workspace; the caller must close `handle`. */
export interface OpenedFile {
  readonly success: true;
  /** The older name of `success`, kept for callers written against it. */
  readonly handle: FileHandle;
  readonly path: string;
  readonly relative: string;
  readonly size: number;
  readonly mode: number;
  readonly mtimeMs: number;
}

/** Options for {@link openReadIn}. */
export interface OpenReadOptions {
  /** Refuse (too_large) files bigger than this many bytes. */
  readonly maxBytes?: number;
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

const changed = (input: string) =>
  workspaceFailure(
    'changed_during_check',
    `${quotePath(input)} was replaced while it was being opened. Read it again; if this repeats, something is swapping the file.`,
  );

async function attempt(
  ctx: ResolverContext,
  input: string,
  options: OpenReadOptions,
): Promise<OpenedFile | WorkspaceFailure | 'retry'> {
  const resolved = await resolveDetail(ctx, input, 'read');
  if (!resolved.success) return resolved;
  const detail = applyIntent(resolved, input, 'read');
  if (!detail.success) return detail;
  if (detail.kind === 'directory') {
    return workspaceFailure('not_a_file', `${quotePath(input)} is a directory; list it instead of reading it.`);
  }
  let handle: FileHandle;
  try {
    handle = await open(detail.path, READ_FLAGS);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ELOOP' || code === 'ENOENT') return 'retry';
    if (code === 'ENXIO') {
      return workspaceFailure('special_file', `${quotePath(input)} is a socket, not a regular file.`);
    }
    return workspaceFailure('io_error', `Could not open ${quotePath(input)} (${code ?? 'unknown error'}).`);
  }
  try {
    // fstat of a descriptor we hold answers from the inode already in memory: inline, not a thread-pool round trip.
    const st = fstatSync(handle.fd);
    const checked = detail.stat;
    if (
      !checked ||
      st.dev !== checked.dev ||
      st.ino !== checked.ino ||
      (await descriptorMoved(handle.fd, detail.path)) !== undefined
    ) {
      await handle.close();
      return 'retry';
    }
    if (!st.isFile()) {
      await handle.close();
      return workspaceFailure('special_file', `${quotePath(input)} is not a regular file.`);
    }
    if (options.maxBytes !== undefined && st.size > options.maxBytes) {
      await handle.close();
      return workspaceFailure(
        'too_large',
        `${quotePath(input)} is ${st.size} bytes, over the ${options.maxBytes}-byte limit. Read a smaller range or a different file.`,
      );
    }
    return {
      success: true,
      handle,
      path: detail.path,
      relative: detail.relative,
      size: st.size,
      mode: st.mode,
      mtimeMs: st.mtimeMs,
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
    if (result !== 'retry') return result;
  }
  return changed(input);
}
