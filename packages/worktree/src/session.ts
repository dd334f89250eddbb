import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ConfigurationError } from '@bough/core';
import { fail, type WorktreeFailure } from './errors.js';
import { type GitOptions, git, gitError } from './internal/git.js';
import { ensureContainer, ensureExcluded, makePlainDirs, worktreeKind } from './internal/worktree-paths.js';
import { WORKTREE_LIMITS, type WorktreeLimits } from './limits.js';

/** One live session: a git worktree on its own branch, created from a recorded base. */
export interface WorktreeSession {
  /** The worktree's directory name under `.worktrees`, also its branch (`<prefix>-<8 hex>`). */
  readonly name: string;
  /** Absolute path of the worktree (`<repo>/.worktrees/<name>`). */
  readonly worktree: string;
  /** The session's branch (same as `name`). */
  readonly branch: string;
  /** Branch the session was created from; a merge only goes back into it. */
  readonly base: string;
  /** The commit of `base` the session started from; diffs compare against it. */
  readonly baseSha: string;
  /** Absolute, real path of the repository's top directory. */
  readonly repoRoot: string;
  /** The workspace's counterpart inside the worktree: where tools work while the session is active. */
  readonly workdir: string;
  /** `-c` settings for commands that commit (identity). */
  readonly gitConfig: readonly string[];
}

/** Options shared by the worktree functions. */
export interface WorktreeOptions {
  /** Overrides of {@link WORKTREE_LIMITS}; a bad value throws a `ConfigurationError` naming the key. */
  readonly limits?: Partial<WorktreeLimits>;
  readonly signal?: AbortSignal;
  /** Commit identity; without it the repository's own is used, or a neutral fallback when it has none. */
  readonly identity?: { readonly name: string; readonly email: string };
}

/** Options of {@link createWorktree}. */
export interface CreateWorktreeOptions extends WorktreeOptions {
  /** First part of the worktree's name and branch, before a random suffix (default `worktree`). */
  readonly prefix?: string;
}

/** What {@link createWorktree} returns on success. */
export interface CreatedWorktree {
  readonly success: true;
  readonly session: WorktreeSession;
}

/** A prefix that is safe as the start of a branch name and a directory name. */
const PREFIX = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/** Git options for commands about one repository. */
export function gitOptions(root: string, options: WorktreeOptions, config: readonly string[] = []): GitOptions {
  const limits = WORKTREE_LIMITS.resolve(options.limits);
  return {
    root,
    timeoutMs: limits.gitTimeoutMs,
    maxOutputBytes: limits.gitOutputBytes,
    ...(options.signal ? { signal: options.signal } : {}),
    config,
  };
}

/**
 * Creates a worktree session for the repository holding `workspaceRoot`, on a new branch from its current branch.
 * Refused (typed failure) outside a repository, without commits, on a detached HEAD, or when `.worktrees`,
 * `.git/info` or its `exclude` file is a link.
 */
export async function createWorktree(
  workspaceRoot: string,
  options: CreateWorktreeOptions = {},
): Promise<CreatedWorktree | WorktreeFailure> {
  const prefix = options.prefix ?? 'worktree';
  if (!PREFIX.test(prefix)) {
    throw new ConfigurationError(
      `worktree prefix must be 1-40 letters, digits, '_' or '-', starting with a letter or digit; got ${JSON.stringify(prefix)}`,
    );
  }
  const ws = await realpath(workspaceRoot);
  const probe = gitOptions(ws, options);
  const top = await git(['rev-parse', '--show-toplevel'], ws, probe);
  if (!top.ok)
    return fail(
      'not_a_git_repo',
      `The workspace is not inside a git repository, so no worktree can be made: ${gitError(top)}`,
    );
  const repoRoot = await realpath(top.stdout.trim());
  const at = gitOptions(repoRoot, options);
  const head = await git(['rev-parse', '--abbrev-ref', 'HEAD'], repoRoot, at);
  if (!head.ok) return fail('no_commits', `The repository has no commit to base a worktree on: ${gitError(head)}`);
  const base = head.stdout.trim();
  if (base === 'HEAD') {
    return fail(
      'detached_head',
      'The repository is in a detached HEAD state; check out a branch before creating a worktree.',
    );
  }
  const sha = await git(['rev-parse', 'HEAD'], repoRoot, at);
  if (!sha.ok) return fail('git_failed', `Could not resolve ${base}: ${gitError(sha)}`);
  const container = await ensureContainer(repoRoot);
  if (container) return container;
  const excluded = await ensureExcluded(repoRoot, at);
  if (excluded) return excluded;
  const name = `${prefix}-${randomBytes(4).toString('hex')}`;
  const worktree = join(repoRoot, '.worktrees', name);
  const add = await git(['worktree', 'add', '-b', name, worktree, sha.stdout.trim()], repoRoot, at);
  if (!add.ok) return fail('git_failed', `Could not create the worktree: ${gitError(add)}`);
  const gitConfig = await identityConfig(repoRoot, at, options);
  const inner = relative(repoRoot, ws);
  const workdir = inner === '' ? worktree : join(worktree, inner);
  // A workspace below the repository root may hold no tracked file yet; its counterpart must still exist, made
  // one plain directory at a time (a committed link on the way must not lead out of the worktree).
  const madeWorkdir = await makePlainDirs(worktree, inner);
  if (madeWorkdir) {
    await discardWorktree(
      { name, worktree, branch: name, base, baseSha: '', repoRoot, workdir, gitConfig: [] },
      options,
    );
    return madeWorkdir;
  }
  const session: WorktreeSession = {
    name,
    worktree,
    branch: name,
    base,
    baseSha: sha.stdout.trim(),
    repoRoot,
    workdir,
    gitConfig,
  };
  return { success: true, session: Object.freeze(session) };
}

async function identityConfig(repoRoot: string, at: GitOptions, options: WorktreeOptions): Promise<string[]> {
  if (options.identity) return [`user.name=${options.identity.name}`, `user.email=${options.identity.email}`];
  const email = await git(['config', '--get', 'user.email'], repoRoot, at);
  const name = await git(['config', '--get', 'user.name'], repoRoot, at);
  const config: string[] = [];
  if (!name.ok || name.stdout.trim() === '') config.push('user.name=bough worktree');
  if (!email.ok || email.stdout.trim() === '') config.push('user.email=worktree@bough.invalid');
  return config;
}

/** What a discard (or the cleanup after a merge) managed to do. */
export interface WorktreeCleanup {
  /** True when both the worktree and the branch are gone, judged by looking again afterwards. */
  readonly success: boolean;
  readonly worktree_removed: boolean;
  readonly branch_deleted: boolean;
  readonly errors: readonly string[];
}

/**
 * Removes the worktree and deletes its branch. Retry-safe: a part already gone counts as done, and success is
 * judged by looking again afterwards, so the result always matches what is on disk.
 */
export async function discardWorktree(
  session: WorktreeSession,
  options: WorktreeOptions = {},
): Promise<WorktreeCleanup> {
  const at = gitOptions(session.repoRoot, options);
  const errors: string[] = [];
  // A worktree path that became a link (or a file) is not ours to recurse into: drop the entry itself, never its target.
  if (worktreeKind(session.worktree) === 'other') {
    try {
      unlinkSync(session.worktree);
    } catch (error) {
      errors.push(`worktree remove: ${(error as { code?: string }).code ?? 'unlink failed'}`);
    }
  }
  if (worktreeKind(session.worktree) === 'directory') {
    const removed = await git(['worktree', 'remove', '--force', '--force', session.worktree], session.repoRoot, at);
    if (!removed.ok) errors.push(`worktree remove: ${gitError(removed)}`);
  }
  if (worktreeKind(session.worktree) === 'absent') await git(['worktree', 'prune'], session.repoRoot, at);
  const ref = `refs/heads/${session.branch}`;
  if ((await branchState(ref, session.repoRoot, at)) !== 'absent') {
    const deleted = await git(['branch', '-D', session.branch], session.repoRoot, at);
    if (!deleted.ok) errors.push(`branch delete: ${gitError(deleted)}`);
  }
  const worktreeGone = worktreeKind(session.worktree) === 'absent';
  const branchGone = (await branchState(ref, session.repoRoot, at)) === 'absent';
  return { success: worktreeGone && branchGone, worktree_removed: worktreeGone, branch_deleted: branchGone, errors };
}

/** 'unknown' (git could not answer) is never taken for 'absent', so a failed check keeps the session. */
async function branchState(ref: string, repoRoot: string, at: GitOptions): Promise<'present' | 'absent' | 'unknown'> {
  const result = await git(['rev-parse', '--verify', '--quiet', ref], repoRoot, at);
  if (result.ok) return 'present';
  return result.code === 1 ? 'absent' : 'unknown';
}
