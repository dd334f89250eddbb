import type { ToolFailure } from '@bough/core';
import { fail } from './errors.js';
import { git, gitError } from './internal/git.js';
import { globMatch } from './internal/glob-match.js';
import {
  discardSandbox,
  gitOptions,
  type SandboxCleanup,
  type SandboxOptions,
  type SandboxSession,
  worktreeKind,
} from './sandbox-session.js';

/** Branch names a merge refuses unless the toolkit was constructed with `sandboxAllowProtected`. */
export const PROTECTED_BRANCHES: readonly string[] = ['main', 'master', 'release*'];

/** A failure when the worktree has disappeared (interrupted cleanup or removed by hand). */
export function gone(session: SandboxSession): ToolFailure | undefined {
  if (worktreeKind(session.worktree) === 'directory') return undefined;
  return fail(
    'sandbox_missing',
    `The sandbox worktree ${session.name} no longer exists (cleanup was interrupted or it was removed). Run discard to finish cleaning up.`,
  );
}

/** Stages everything in the sandbox and commits it; "nothing to commit" is a success. */
export async function sandboxCommit(
  session: SandboxSession,
  message: string,
  options: SandboxOptions = {},
): Promise<{ success: true; commit?: string; message: string } | ToolFailure> {
  const missing = gone(session);
  if (missing) return missing;
  const at = gitOptions(session.repoRoot, options, session.gitConfig);
  const add = await git(['add', '-A'], session.worktree, at);
  if (!add.ok) return fail('git_failed', `Could not stage the sandbox changes: ${gitError(add)}`);
  const staged = await git(['diff', '--cached', '--quiet'], session.worktree, at);
  if (staged.ok) return { success: true, message: 'Nothing to commit: the sandbox has no uncommitted changes.' };
  const commit = await git(['commit', '--no-verify', '-m', message], session.worktree, at);
  if (!commit.ok) return fail('git_failed', `The commit failed: ${gitError(commit)}`);
  const sha = await git(['rev-parse', 'HEAD'], session.worktree, at);
  return { success: true, commit: sha.stdout.trim(), message: `Committed to ${session.branch}.` };
}

/** Success of {@link sandboxMerge}: merged, and how the cleanup went (success is false if cleanup was partial). */
export type SandboxMergeResult = SandboxCleanup & {
  readonly merged: true;
  readonly commit: string;
  readonly message: string;
};

/**
 * Merges the sandbox branch into its recorded base after verifying the repository is on that branch (not detached,
 * not protected unless allowed). A conflicted merge is aborted and reported; the repository is never left
 * half-merged without the result saying so.
 */
export async function sandboxMerge(
  session: SandboxSession,
  options: SandboxOptions & { allowProtected?: boolean; protectedBranches?: readonly string[] } = {},
): Promise<SandboxMergeResult | ToolFailure> {
  const missing = gone(session);
  if (missing) return missing;
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
      `The repository is on '${current}', not on the sandbox's base branch '${session.base}'; refusing to merge into an unverified target.`,
    );
  }
  const protectedList = options.protectedBranches ?? PROTECTED_BRANCHES;
  if (!options.allowProtected && protectedList.some((pattern) => globMatch(pattern, current))) {
    return fail(
      'protected_branch',
      `The base branch '${current}' is protected; the sandbox will not merge into it. Leave the sandbox for a human to review (diff), or discard it.`,
    );
  }
  const pending = await sandboxCommit(session, `sandbox: ${session.branch}`, options);
  if (!pending.success) return pending;
  const merge = await git(
    ['merge', '--no-ff', '--no-edit', '-m', `Merge sandbox ${session.branch}`, session.branch],
    session.repoRoot,
    at,
  );
  if (!merge.ok) return abortMerge(session, merge.stdout + merge.stderr, options);
  const sha = await git(['rev-parse', 'HEAD'], session.repoRoot, at);
  const cleanup = await discardSandbox(session, options);
  return {
    ...cleanup,
    merged: true,
    commit: sha.stdout.trim(),
    message: cleanup.success
      ? `Merged ${session.branch} into ${session.base} and removed the sandbox.`
      : `Merged ${session.branch} into ${session.base}, but cleanup is incomplete; run discard to finish.`,
  };
}

async function abortMerge(session: SandboxSession, output: string, options: SandboxOptions): Promise<ToolFailure> {
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
      'The sandbox is still active: resolve the differences there (or discard it).',
    { merged: false, aborted: true, conflicts: files },
  );
}
