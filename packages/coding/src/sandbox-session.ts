import { randomBytes } from 'node:crypto';
import { lstatSync, unlinkSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ToolFailure } from '@bough/core';
import { fail } from './errors.js';
import { type GitOptions, git, gitError } from './internal/git.js';
import { ensureContainer, ensureExcluded, makePlainDirs } from './internal/sandbox-paths.js';
import { DEFAULT_CODING_LIMITS } from './limits.js';

/** One live sandbox: a git worktree on its own branch, created from a recorded base. */
export interface SandboxSession {
  readonly name: string;
  /** Absolute path of the worktree (`<repo>/.worktrees/<name>`). */
  readonly worktree: string;
  /** The sandbox's branch (same as `name`). */
  readonly branch: string;
  /** Branch the sandbox was created from; merge only goes back into it. */
  readonly base: string;
  readonly baseSha: string;
  readonly repoRoot: string;
  /** Where tools work while the sandbox is active: the workspace's counterpart inside the worktree. */
  readonly workdir: string;
  /** `-c` settings for commands that commit (identity). */
  readonly gitConfig: readonly string[];
}

/** Options shared by the sandbox functions. */
export interface SandboxOptions {
  readonly timeoutMs?: number;
  /** Bytes of output kept per git stream (default `gitOutputBytes` of the coding limits). */
  readonly maxOutputBytes?: number;
  readonly signal?: AbortSignal;
  /** Commit identity; without it the repository's own is used, or a neutral fallback when it has none. */
  readonly identity?: { readonly name: string; readonly email: string };
}

/** Git options for commands about one repository. */
export function gitOptions(root: string, options: SandboxOptions, config: readonly string[] = []): GitOptions {
  return {
    root,
    timeoutMs: options.timeoutMs ?? DEFAULT_CODING_LIMITS.gitTimeoutMs,
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_CODING_LIMITS.gitOutputBytes,
    ...(options.signal ? { signal: options.signal } : {}),
    config,
  };
}

/** Creates a worktree sandbox for the repository holding `workspaceRoot`, based on its current branch. */
export async function createSandbox(
  workspaceRoot: string,
  options: SandboxOptions = {},
): Promise<{ success: true; session: SandboxSession } | ToolFailure> {
  const ws = await realpath(workspaceRoot);
  const probe = gitOptions(ws, options);
  const top = await git(['rev-parse', '--show-toplevel'], ws, probe);
  if (!top.ok)
    return fail(
      'not_a_git_repo',
      `The workspace is not inside a git repository, so no sandbox can be made: ${gitError(top)}`,
    );
  const repoRoot = await realpath(top.stdout.trim());
  const at = gitOptions(repoRoot, options);
  const head = await git(['rev-parse', '--abbrev-ref', 'HEAD'], repoRoot, at);
  if (!head.ok) return fail('no_commits', `The repository has no commit to base a sandbox on: ${gitError(head)}`);
  const base = head.stdout.trim();
  if (base === 'HEAD') {
    return fail(
      'detached_head',
      'The repository is in a detached HEAD state; check out a branch before creating a sandbox.',
    );
  }
  const sha = await git(['rev-parse', 'HEAD'], repoRoot, at);
  if (!sha.ok) return fail('git_failed', `Could not resolve ${base}: ${gitError(sha)}`);
  const container = await ensureContainer(repoRoot);
  if (container) return container;
  const excluded = await ensureExcluded(repoRoot, at);
  if (excluded) return excluded;
  const name = `sandbox-${randomBytes(4).toString('hex')}`;
  const worktree = join(repoRoot, '.worktrees', name);
  const add = await git(['worktree', 'add', '-b', name, worktree, sha.stdout.trim()], repoRoot, at);
  if (!add.ok) return fail('git_failed', `Could not create the sandbox worktree: ${gitError(add)}`);
  const gitConfig = await identityConfig(repoRoot, at, options);
  const inner = relative(repoRoot, ws);
  const workdir = inner === '' ? worktree : join(worktree, inner);
  // A workspace below the repository root may hold no tracked file yet; its counterpart must still exist, made
  // one plain directory at a time (a committed link on the way must not lead the sandbox out of its worktree).
  const madeWorkdir = await makePlainDirs(worktree, inner);
  if (madeWorkdir) {
    await discardSandbox(
      { name, worktree, branch: name, base, baseSha: '', repoRoot, workdir, gitConfig: [] },
      options,
    );
    return madeWorkdir;
  }
  const session: SandboxSession = {
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

async function identityConfig(repoRoot: string, at: GitOptions, options: SandboxOptions): Promise<string[]> {
  if (options.identity) return [`user.name=${options.identity.name}`, `user.email=${options.identity.email}`];
  const email = await git(['config', '--get', 'user.email'], repoRoot, at);
  const name = await git(['config', '--get', 'user.name'], repoRoot, at);
  const config: string[] = [];
  if (!name.ok || name.stdout.trim() === '') config.push('user.name=bough sandbox');
  if (!email.ok || email.stdout.trim() === '') config.push('user.email=sandbox@bough.invalid');
  return config;
}

/** What a discard (or the cleanup after a merge) managed to do. */
export interface SandboxCleanup {
  readonly success: boolean;
  readonly worktree_removed: boolean;
  readonly branch_deleted: boolean;
  readonly errors: readonly string[];
}

/**
 * Removes the worktree and deletes the sandbox branch. Retry-safe: a part already gone counts as done, and
 * success is judged by looking again afterwards, so the result always matches what is on disk.
 */
export async function discardSandbox(session: SandboxSession, options: SandboxOptions = {}): Promise<SandboxCleanup> {
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

/** What is at a worktree path, without following a link. */
export function worktreeKind(path: string): 'directory' | 'absent' | 'other' {
  try {
    return lstatSync(path).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'absent';
  }
}

/** 'unknown' (git could not answer) is never taken for 'absent', so a failed check keeps the slot. */
async function branchState(ref: string, repoRoot: string, at: GitOptions): Promise<'present' | 'absent' | 'unknown'> {
  const result = await git(['rev-parse', '--verify', '--quiet', ref], repoRoot, at);
  if (result.ok) return 'present';
  return result.code === 1 ? 'absent' : 'unknown';
}
