import picomatch from 'picomatch';
import { fail, type WorktreeFailure } from './errors.js';
import { git, gitError } from './internal/git.js';
import { missing } from './internal/worktree-paths.js';
import { discardWorktree, gitOptions, type WorktreeOptions, type WorktreeSession } from './session.js';

/** Branch names {@link worktreeMerge} refuses to merge into unless `allowProtected` is set. */
export const PROTECTED_BRANCHES: readonly string[] = ['main', 'master', 'release*'];

/** Options of {@link worktreeMerge}. */
export interface WorktreeMergeOptions extends WorktreeOptions {
  /** Merge even into a protected branch. */
  readonly allowProtected?: boolean;
  /**
   * Globs of protected base branches (default {@link PROTECTED_BRANCHES}): `*` matches any run of characters, `/`
   * included, `?` one character, `[abc]` a class; case is ignored.
   */
  readonly protectedBranches?: readonly string[];
  /** The merge commit's message (default `Merge worktree <branch>`). */
  readonly message?: string;
}

/** Success of {@link worktreeCommit}: the new commit, or none when there was nothing to commit. */
export interface WorktreeCommitResult {
  readonly success: true;
  readonly commit?: string;
  readonly message: string;
}

/** Whether `branch` matches one of the protected globs (picomatch with bash rules, so `*` crosses `/`). */
function isProtected(branch: string, patterns: readonly string[]): boolean {
  return patterns.length > 0 && picomatch([...patterns], { bash: true, nocase: true, dot: true })(branch);
}

/** Stages everything in the worktree and commits it on its branch; "nothing to commit" is a success. */
export async function worktreeCommit(
  session: WorktreeSession,
  message: string,
  options: WorktreeOptions = {},
): Promise<WorktreeCommitResult | WorktreeFailure> {
  const gone = missing(session);
  if (gone) return gone;
  const at = gitOptions(session.repoRoot, options, session.gitConfig);
  const add = await git(['add', '-A'], session.worktree, at);
  if (!add.ok) return fail('git_failed', `Could not stage the worktree's changes: ${gitError(add)}`);
  const staged = await git(['diff', '--cached', '--quiet'], session.worktree, at);
  if (staged.ok) return { success: true, message: 'Nothing to commit: the worktree has no uncommitted changes.' };
  const commit = await git(['commit', '--no-verify', '-m', message], session.worktree, at);
  if (!commit.ok) return fail('git_failed', `The commit failed: ${gitError(commit)}`);
  const sha = await git(['rev-parse', 'HEAD'], session.worktree, at);
  return { success: true, commit: sha.stdout.trim(), message: `Committed to ${session.branch}.` };
}

/** Success of {@link worktreeMerge}: merged, and the worktree and its branch are gone. */
export interface WorktreeMergeResult {
  readonly success: true;
  readonly merged: true;
  readonly commit: string;
  readonly message: string;
}

/**
 * Commits pending work, merges the session's branch into its recorded base (`--no-ff`) after verifying the
 * repository is on that branch (not detached, not protected unless allowed), then removes the worktree and branch.
 * A conflicted merge is aborted and reported; the repository is never left half-merged without the result saying so.
 */
export async function worktreeMerge(
  session: WorktreeSession,
  options: WorktreeMergeOptions = {},
): Promise<WorktreeMergeResult | WorktreeFailure> {
  const gone = missing(session);
  if (gone) return gone;
  const at = gitOptions(session.repoRoot, options, session.gitConfig);
  const head = await git(['rev-parse', '--abbrev-ref', 'HEAD'], session.repoRoot, at);
  if (!head.ok) return fail('merge_refused', `Could not read the repository's current branch: ${gitError(head)}`);
  const current = head.stdout.trim();
  if (current === 'HEAD') {
    return fail(
      'merge_refused',
      'The repository is in a detached HEAD state; refusing to merge into an unverified target.',
    );
  }
  if (current !== session.base) {
    return fail(
      'merge_refused',
      `The repository is on '${current}', not on the worktree's base branch '${session.base}'; refusing to merge into an unverified target.`,
    );
  }
  const protectedList = options.protectedBranches ?? PROTECTED_BRANCHES;
  if (!options.allowProtected && isProtected(current, protectedList)) {
    return fail(
      'protected_branch',
      `The base branch '${current}' is protected; the worktree will not be merged into it. Leave it for a human to review (diff), or discard it.`,
    );
  }
  const pending = await worktreeCommit(session, `Pending changes of ${session.branch}`, options);
  if (!pending.success) return pending;
  const merge = await git(
    ['merge', '--no-ff', '--no-edit', '-m', options.message ?? `Merge worktree ${session.branch}`, session.branch],
    session.repoRoot,
    at,
  );
  if (!merge.ok) return abortMerge(session, merge.stdout + merge.stderr, options);
  const sha = await git(['rev-parse', 'HEAD'], session.repoRoot, at);
  const cleanup = await discardWorktree(session, options);
  const commit = sha.stdout.trim();
  if (!cleanup.success) {
    // Merged, but the worktree or its branch is still there: a failure value, so `success` alone tells a caller
    // that something is left to do, with `merged: true` saying the merge itself happened.
    return fail(
      'cleanup_incomplete',
      `Merged ${session.branch} into ${session.base}, but cleanup is incomplete (${cleanup.errors.join('; ') || 'see git status'}); discard to finish.`,
      {
        merged: true,
        commit,
        worktree_removed: cleanup.worktree_removed,
        branch_deleted: cleanup.branch_deleted,
        errors: cleanup.errors,
      },
    );
  }
  return {
    success: true,
    merged: true,
    commit,
    message: `Merged ${session.branch} into ${session.base} and removed the worktree.`,
  };
}

async function abortMerge(
  session: WorktreeSession,
  output: string,
  options: WorktreeOptions,
): Promise<WorktreeFailure> {
  const at = gitOptions(session.repoRoot, options, session.gitConfig);
  const inMerge = (await git(['rev-parse', '-q', '--verify', 'MERGE_HEAD'], session.repoRoot, at)).ok;
  const detail = output.trim().split('\n').slice(0, 8).join('\n');
  if (!inMerge) {
    return fail('merge_failed', `git refused the merge and left the repository unchanged: ${detail}`, {
      merged: false,
      aborted: false,
    });
  }
  const conflicts = await git(['diff', '--name-only', '--diff-filter=U'], session.repoRoot, at);
  const files = conflicts.stdout.split('\n').filter((line) => line !== '');
  const abort = await git(['merge', '--abort'], session.repoRoot, at);
  const stillMerging = (await git(['rev-parse', '-q', '--verify', 'MERGE_HEAD'], session.repoRoot, at)).ok;
  if (!abort.ok || stillMerging) {
    return fail(
      'merge_conflict',
      `The merge conflicted (${files.join(', ') || 'see git status'}) and aborting it failed: the repository is left MID-MERGE. ` +
        `A human must run \`git merge --abort\` in ${session.repoRoot}. ${gitError(abort)}`,
      { merged: false, aborted: false, conflicts: files },
    );
  }
  return fail(
    'merge_conflict',
    `The merge conflicted in ${files.join(', ') || 'some files'}; it was aborted and the repository is as before. ` +
      'The worktree is still there: resolve the differences in it (or discard it).',
    { merged: false, aborted: true, conflicts: files },
  );
}
