import { constants, lstatSync } from 'node:fs';
import { type FileHandle, lstat, mkdir, open } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fail, type WorktreeFailure } from '../errors.js';
import { type GitOptions, git, gitError } from './git.js';

const unsafe = (what: string) =>
  fail(
    'worktree_unsafe',
    `${what} is a symbolic link or not a plain directory/file, so no worktree is written through it (it could lead outside the repository). Remove it, then retry.`,
  );

/** `<repo>/.worktrees` must be a plain directory inside the repository (made here if missing), never a link. */
export async function ensureContainer(repoRoot: string): Promise<WorktreeFailure | undefined> {
  const dir = join(repoRoot, '.worktrees');
  await mkdir(dir).catch(() => {});
  const info = await lstat(dir).catch(() => undefined);
  if (!info?.isDirectory()) return unsafe('.worktrees');
  return undefined;
}

/** Adds `/.worktrees/` to the repository's info/exclude without following links. */
export async function ensureExcluded(repoRoot: string, at: GitOptions): Promise<WorktreeFailure | undefined> {
  const common = await git(['rev-parse', '--git-common-dir'], repoRoot, at);
  if (!common.ok) return fail('git_failed', `Could not find the repository's git directory: ${gitError(common)}`);
  const dir = common.stdout.trim();
  const info = join(isAbsolute(dir) ? dir : resolve(repoRoot, dir), 'info');
  const file = join(info, 'exclude');
  await mkdir(info).catch(() => {});
  if (!(await lstat(info).catch(() => undefined))?.isDirectory()) return unsafe('.git/info');
  const existing = await lstat(file).catch(() => undefined);
  if (existing && !existing.isFile()) return unsafe('.git/info/exclude');
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
    const text = await handle.readFile('utf8');
    if (text.split(/\r?\n/).some((line) => line.trim() === '/.worktrees/' || line.trim() === '.worktrees/'))
      return undefined;
    await handle.appendFile(`${text === '' || text.endsWith('\n') ? '' : '\n'}/.worktrees/\n`);
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ELOOP') return unsafe('.git/info/exclude');
    return fail('git_failed', `Could not add .worktrees/ to .git/info/exclude: ${code ?? 'write error'}`);
  } finally {
    await handle?.close().catch(() => {});
  }
}

/** Creates `inner` below `top` one component at a time, refusing any component that is a link or a file. */
export async function makePlainDirs(top: string, inner: string): Promise<WorktreeFailure | undefined> {
  let current = top;
  for (const part of inner.split(sep).filter((piece) => piece !== '')) {
    current = join(current, part);
    await mkdir(current).catch(() => {});
    if (!(await lstat(current).catch(() => undefined))?.isDirectory()) return unsafe(relative(top, current));
  }
  return undefined;
}

/** What is at a worktree path, without following a link. */
export function worktreeKind(path: string): 'directory' | 'absent' | 'other' {
  try {
    return lstatSync(path).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'absent';
  }
}

/** A failure when the worktree has disappeared (interrupted cleanup or removed by hand). */
export function missing(session: { readonly name: string; readonly worktree: string }): WorktreeFailure | undefined {
  if (worktreeKind(session.worktree) === 'directory') return undefined;
  return fail(
    'worktree_missing',
    `The worktree ${session.name} no longer exists (cleanup was interrupted or it was removed). Discard it to finish cleaning up.`,
  );
}
