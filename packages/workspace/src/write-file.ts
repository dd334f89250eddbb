import { join } from 'node:path';
import { quotePath, type WorkspaceFailure, workspaceFailure } from './errors.js';
import { applyIntent } from './internal/intent.js';
import { lockPaths } from './internal/path-locks.js';
import { type ResolvedDetail, type ResolverContext, resolveDetail } from './internal/resolver.js';
import { mkdirChain } from './internal/safe-mkdir.js';
import { createExclusive, replaceAtomically, replaceWith, type WriteHooks } from './internal/safe-write.js';
import type { FillReplacement } from './replacement.js';

/** Options for {@link writeFileIn}. */
export interface WriteFileOptions {
  /** Create missing parent directories (default true). */
  readonly createParents?: boolean;
  /** Permission bits for a new file (default 0o666 minus umask); an existing file always keeps its mode. */
  readonly mode?: number;
  /**
   * Runs under the path's lock (see {@link lockPaths}) just before the file is written, after every other writer of
   * the path in this process has finished: the place to check the file is still what the caller read. Resolving
   * false writes nothing and gives `changed_during_check`. It may read anything but must not write this path (it
   * would wait for the lock it runs under).
   */
  readonly confirm?: () => Promise<boolean>;
}

/** What a successful write did. */
export interface WrittenFile {
  readonly success: true;
  /** The older name of `success`, kept for callers written against it. */
  readonly path: string;
  readonly relative: string;
  readonly created: boolean;
  readonly bytes: number;
}

/** Writes a whole file inside the workspace without ever following a link or modifying a hard-linked inode. */
export async function writeFileIn(
  ctx: ResolverContext,
  input: string,
  data: string | Uint8Array,
  options: WriteFileOptions = {},
  hooks: WriteHooks = {},
): Promise<WrittenFile | WorkspaceFailure> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.byteLength > ctx.limits.maxWriteBytes) {
    return workspaceFailure(
      'too_large',
      `The content is ${bytes.byteLength} bytes, over the ${ctx.limits.maxWriteBytes}-byte write limit. Write smaller files.`,
    );
  }
  const resolved = await resolveDetail(ctx, input, 'write');
  if (!resolved.success) return resolved;
  const detail = applyIntent(resolved, input, 'write');
  if (!detail.success) return detail;
  const done = (created: boolean): WrittenFile => ({
    success: true,
    path: detail.path,
    relative: detail.relative,
    created,
    bytes: bytes.byteLength,
  });
  const release = await lockPaths([detail.path]);
  try {
    if (options.confirm && !(await options.confirm())) return changedSinceRead(input);
    return await writeResolved(ctx, input, detail, bytes, options, hooks, done);
  } finally {
    release();
  }
}

const changedSinceRead = (input: string) =>
  workspaceFailure(
    'changed_during_check',
    `${quotePath(input)} changed since it was read; nothing was written. Read it again and retry.`,
  );

/** {@link writeFileIn}'s work once the path is resolved and locked. */
async function writeResolved(
  ctx: ResolverContext,
  input: string,
  detail: ResolvedDetail,
  bytes: Uint8Array,
  options: WriteFileOptions,
  hooks: WriteHooks,
  done: (created: boolean) => WrittenFile,
): Promise<WrittenFile | WorkspaceFailure> {
  if (detail.exists && detail.stat) {
    const { mode, uid, gid } = detail.stat;
    const failed = await replaceAtomically(detail.path, bytes, { mode, uid, gid }, input, ctx.durable === true, hooks);
    return failed ?? done(false);
  }

  let parent = detail.base;
  const parents = detail.missing.slice(0, -1);
  if (parents.length > 0) {
    if (options.createParents === false) {
      return workspaceFailure(
        'not_found',
        `The parent directory of ${quotePath(input)} does not exist. Create it first or allow parent creation.`,
      );
    }
    const made = await mkdirChain(detail.base, parents, input);
    if (!made.success) return made;
    parent = made.path;
  }
  const name = detail.missing[detail.missing.length - 1]!;
  const failed = await createExclusive(
    join(parent, name),
    bytes,
    options.mode ?? 0o666,
    input,
    ctx.durable === true,
    hooks,
  );
  return failed ?? done(true);
}

/** Options for {@link replaceFileIn}. */
export interface ReplaceFileOptions {
  /**
   * Runs after the new content is written (and fsynced in a durable workspace), just before it is renamed over the
   * file, under the path's lock (no other writer of the path in this process runs between it and the rename);
   * resolving false abandons the replacement (for example when the caller finds the original changed meanwhile).
   */
  readonly confirm?: () => Promise<boolean>;
}

/** What a piecewise replacement did: the file was replaced, or the filler or `confirm` abandoned it. */
export type ReplacedFile = WrittenFile | { readonly success: true; readonly abandoned: true };

/**
 * Replaces an existing regular file with content written piece by piece (see {@link FillReplacement}) into a temp file
 * beside it, with the same guarantees as an overwrite by {@link writeFileIn}: no link followed, mode kept, fsync in a
 * durable workspace, then an atomic rename. A missing file is `not_found`; nothing is created.
 */
export async function replaceFileIn(
  ctx: ResolverContext,
  input: string,
  fill: FillReplacement,
  options: ReplaceFileOptions = {},
  hooks: WriteHooks = {},
): Promise<ReplacedFile | WorkspaceFailure> {
  const resolved = await resolveDetail(ctx, input, 'write');
  if (!resolved.success) return resolved;
  const detail = applyIntent(resolved, input, 'write');
  if (!detail.success) return detail;
  if (!detail.exists || !detail.stat) {
    return workspaceFailure(
      'not_found',
      `Nothing exists at ${quotePath(input)} to replace; write it as a new file instead.`,
    );
  }
  const { mode, uid, gid } = detail.stat;
  const done = await replaceWith(
    detail.path,
    fill,
    { mode, uid, gid },
    input,
    {
      maxBytes: ctx.limits.maxWriteBytes,
      durable: ctx.durable === true,
      syncStepBytes: ctx.limits.replaceSyncStepBytes,
      lock: () => lockPaths([detail.path]),
      ...(options.confirm ? { confirm: options.confirm } : {}),
    },
    hooks,
  );
  if (done === 'abandoned') return { success: true, abandoned: true };
  if (typeof done !== 'number') return done;
  return { success: true, path: detail.path, relative: detail.relative, created: false, bytes: done };
}

/** Creates a directory and any missing parents inside the workspace, one verified level at a time. */
export async function mkdirIn(
  ctx: ResolverContext,
  input: string,
): Promise<{ success: true; path: string } | WorkspaceFailure> {
  const detail = await resolveDetail(ctx, input, 'write');
  if (!detail.success) return detail;
  if (detail.kind === 'directory') return { success: true, path: detail.path };
  if (detail.kind !== 'missing') {
    return workspaceFailure('not_a_directory', `${quotePath(input)} already exists and is not a directory.`);
  }
  return mkdirChain(detail.base, detail.missing, input);
}
