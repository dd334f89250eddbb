import type { Stats } from 'node:fs';
import { link, lstat, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoCode, quotePath, type WorkspaceFailure, workspaceFailure } from './errors.js';
import { lockPaths } from './internal/path-locks.js';
import { isInside } from './internal/paths.js';
import { type PinnedDir, pinDir } from './internal/pinned-dir.js';
import { type ResolverContext, resolveDetail } from './internal/resolver.js';
import { mkdirChain } from './internal/safe-mkdir.js';
import { isGitDirName, isProtectedName } from './protected-names.js';

/** Options of {@link moveIn}. */
export interface MoveOptions {
  /** Replace an existing regular file at the destination (default false: refuse with `already_exists`). */
  readonly overwrite?: boolean;
}

/** What a successful move did. */
export interface MovedPath {
  readonly success: true;
  /** The older name of `success`, kept for callers written against it. */
  /** Real absolute path of the destination. */
  readonly path: string;
  /** Destination relative to the root. */
  readonly relative: string;
  /** Source relative to the root. */
  readonly from: string;
  readonly kind: 'file' | 'directory';
  /** True when an existing file at the destination was replaced. */
  readonly overwrote: boolean;
}

const swapped = (input: string) =>
  workspaceFailure(
    'changed_during_check',
    `${quotePath(input)} changed while it was being moved; nothing was moved. Look at it again and retry.`,
  );

/** Finds the first protected name or `.git` below a directory (no link followed), bounded by `budget` entries. */
async function forbiddenInside(
  ctx: ResolverContext,
  dir: string,
  budget: { left: number },
): Promise<string | undefined> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true, encoding: 'utf8' });
  } catch {
    return '(unreadable directory)';
  }
  for (const entry of entries) {
    if (--budget.left < 0) return '(too many entries to check)';
    const name = String(entry.name);
    if (isProtectedName(name, ctx.policy) || isGitDirName(name)) return name;
    if (entry.isDirectory()) {
      const found = await forbiddenInside(ctx, join(dir, name), budget);
      if (found) return found;
    }
  }
  return undefined;
}

async function sameEntry(dir: PinnedDir, name: string, checked: Stats | undefined): Promise<boolean> {
  const now = await lstat(join(dir.prefix, name)).catch(() => undefined);
  return !!now && !!checked && now.dev === checked.dev && now.ino === checked.ino && !now.isSymbolicLink();
}

/**
 * Renames a file or directory inside the workspace. Both ends go through the gate with write intent (protected names,
 * `.git`, links and paths outside are refused); a directory holding protected names or a `.git` is not moved. An
 * existing destination is refused unless `overwrite` is set (and then only a regular file is replaced). Missing parents
 * of the destination are created one verified level at a time; both parents are held open by descriptor for the rename,
 * and both paths' locks are held from the last check to the rename.
 */
export async function moveIn(
  ctx: ResolverContext,
  from: string,
  to: string,
  options: MoveOptions = {},
): Promise<MovedPath | WorkspaceFailure> {
  const src = await resolveDetail(ctx, from, 'write');
  if (!src.success) return src;
  if (src.kind === 'missing') {
    return workspaceFailure('not_found', `Nothing exists at ${quotePath(from)} to move. List its directory to check.`);
  }
  if (src.kind === 'other') {
    return workspaceFailure(
      'special_file',
      `${quotePath(from)} is a device, pipe or socket; only files and directories move.`,
    );
  }
  if (src.path === ctx.root) return workspaceFailure('invalid_path', 'The workspace root itself cannot be moved.');
  const dst = await resolveDetail(ctx, to, 'write');
  if (!dst.success) return dst;
  if (dst.path === src.path) {
    return workspaceFailure(
      'invalid_path',
      `${quotePath(from)} and ${quotePath(to)} are the same path; nothing to move.`,
    );
  }
  if (isInside(src.path, dst.path)) {
    return workspaceFailure(
      'invalid_path',
      `${quotePath(to)} is inside ${quotePath(from)}; a directory cannot move into itself.`,
    );
  }
  const kind = src.kind;
  if (dst.kind === 'other') {
    return workspaceFailure('special_file', `${quotePath(to)} is a device, pipe or socket; it is not replaced.`);
  }
  if (dst.kind === 'directory') {
    return workspaceFailure(
      'already_exists',
      `${quotePath(to)} is an existing directory. Give the full new path (for example ${quotePath(`${to.replace(/\/+$/u, '')}/${basename(src.path)}`)}).`,
    );
  }
  const overwrote = dst.kind === 'file';
  if (overwrote && !options.overwrite) {
    return workspaceFailure(
      'already_exists',
      `${quotePath(to)} already exists; set overwrite to replace it, or pick another name.`,
    );
  }
  if (overwrote && kind === 'directory') {
    return workspaceFailure('not_a_directory', `${quotePath(to)} is a file; a directory cannot replace it.`);
  }
  if (kind === 'directory') {
    const found = await forbiddenInside(ctx, src.path, { left: ctx.limits.maxWalkEntries });
    if (found) {
      return workspaceFailure(
        'protected_path',
        `${quotePath(from)} holds ${found.startsWith('(') ? 'entries that could not all be checked' : 'a protected or .git entry'}, so it is not moved. Move the other files one by one.`,
      );
    }
  }
  let dstParent = dirname(dst.path);
  if (dst.missing.length > 1) {
    const made = await mkdirChain(dst.base, dst.missing.slice(0, -1), to);
    if (!made.success) return made;
    dstParent = made.path;
  }
  const srcDir = await pinDir(dirname(src.path));
  if (!srcDir) return swapped(from);
  const dstDir = await pinDir(dstParent);
  if (!dstDir) {
    await srcDir.close();
    return swapped(to);
  }
  const srcName = basename(src.path);
  const dstName = basename(dst.path);
  // Both ends locked from the last look at them to the rename: no write of either slips in between.
  const release = await lockPaths([src.path, dst.path]);
  try {
    if (!(await sameEntry(srcDir, srcName, src.stat))) return swapped(from);
    const source = join(srcDir.prefix, srcName);
    const target = join(dstDir.prefix, dstName);
    if (overwrote) {
      if (!(await sameEntry(dstDir, dstName, dst.stat))) return swapped(to);
      await rename(source, target);
    } else if (kind === 'file') {
      try {
        await link(source, target); // fails with EEXIST when something appeared: never overwrites
      } catch (error) {
        const code = errnoCode(error);
        if (code === 'EEXIST')
          return workspaceFailure('already_exists', `${quotePath(to)} appeared while moving; nothing was moved.`);
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
        // A filesystem without hard links: check, then rename (a narrow race instead of none).
        if (await lstat(target).catch(() => undefined)) {
          return workspaceFailure('already_exists', `${quotePath(to)} appeared while moving; nothing was moved.`);
        }
        await rename(source, target);
        return done();
      }
      await unlink(source);
    } else {
      if (await lstat(target).catch(() => undefined)) {
        return workspaceFailure('already_exists', `${quotePath(to)} appeared while moving; nothing was moved.`);
      }
      await rename(source, target);
    }
    return done();
  } catch (error) {
    const code = errnoCode(error);
    return workspaceFailure(
      'io_error',
      `Could not move ${quotePath(from)} to ${quotePath(to)} (${code === 'EXDEV' ? 'they are on different filesystems' : (code ?? 'unknown error')}).`,
    );
  } finally {
    release();
    await srcDir.close();
    await dstDir.close();
  }

  function done(): MovedPath {
    return {
      success: true,
      path: join(dstParent, dstName),
      relative: dst.success ? dst.relative : to,
      from: src.success ? src.relative : from,
      kind: kind === 'directory' ? 'directory' : 'file',
      overwrote,
    };
  }
}
