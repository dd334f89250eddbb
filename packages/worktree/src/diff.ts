import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { isProtectedName } from '@bough/workspace';
import { fail, type WorktreeFailure } from './errors.js';
import { git, gitError } from './internal/git.js';
import { missing } from './internal/worktree-paths.js';
import { WORKTREE_LIMITS } from './limits.js';
import { gitOptions, type WorktreeOptions, type WorktreeSession } from './session.js';

/** Success of {@link worktreeDiff}: everything the session changed relative to its base, untracked files included. */
export interface WorktreeDiff {
  readonly success: true;
  readonly files_changed: readonly string[];
  readonly stat: string;
  readonly patch: string;
  readonly patch_truncated: boolean;
  readonly full_patch_chars: number;
  /** Changed files whose content is never shown because their names are protected (credentials, keys). */
  readonly withheld: readonly string[];
}

const isProtectedPath = (relative: string) => relative.split('/').some((part) => isProtectedName(part));
const literal = (file: string) => `:(literal)${file}`;
/** No rename detection, and no external diff or textconv programs from the repository's config or attributes. */
const NO_DRIVERS = ['--no-renames', '--no-ext-diff', '--no-textconv'];

/**
 * Read-only diff of the worktree against its base commit: committed, uncommitted and untracked changes, the patch
 * cut at the `patchChars` limit. Protected files (the workspace's credential names) are listed by name only, and
 * untracked links by name only (their targets are not shown).
 */
export async function worktreeDiff(
  session: WorktreeSession,
  options: WorktreeOptions = {},
): Promise<WorktreeDiff | WorktreeFailure> {
  const gone = missing(session);
  if (gone) return gone;
  const at = gitOptions(session.repoRoot, options);
  const cwd = session.worktree;
  const [names, others] = await Promise.all([
    git(['diff', ...NO_DRIVERS, '--name-only', '-z', session.baseSha], cwd, at),
    git(['ls-files', '--others', '--exclude-standard', '-z'], cwd, at),
  ]);
  const failed = [names, others].find((result) => !result.ok);
  if (failed) return fail('git_failed', `Could not diff the worktree: ${gitError(failed)}`);
  const split = (text: string) => text.split('\0').filter((name) => name !== '');
  const tracked = split(names.stdout);
  const untracked = split(others.stdout);
  const withheld = [...tracked, ...untracked].filter(isProtectedPath);
  const shownTracked = tracked.filter((file) => !isProtectedPath(file));
  let full = '';
  let stat = '';
  if (shownTracked.length > 0) {
    const paths = ['--', ...shownTracked.map(literal)];
    const [patch, summary] = await Promise.all([
      git(['diff', ...NO_DRIVERS, session.baseSha, ...paths], cwd, at),
      git(['diff', ...NO_DRIVERS, '--stat', session.baseSha, ...paths], cwd, at),
    ]);
    if (!patch.ok || !summary.ok)
      return fail('git_failed', `Could not diff the worktree: ${gitError(patch.ok ? summary : patch)}`);
    full = patch.stdout;
    stat = summary.stdout.trimEnd();
  }
  const notes: string[] = [];
  for (const file of untracked) {
    if (isProtectedPath(file)) continue;
    if (isLink(join(cwd, file))) {
      notes.push(` ${file} (new symbolic link, target not shown)`);
      continue;
    }
    // --no-index exits 1 when the files differ, which is the expected case here.
    const added = await git(['diff', ...NO_DRIVERS, '--no-index', '--', '/dev/null', file], cwd, at);
    if (added.code === 0 || added.code === 1) full += added.stdout;
    notes.push(` ${file} (new, untracked)`);
  }
  for (const file of withheld) notes.push(` ${file} (protected: content not shown)`);
  const cap = WORKTREE_LIMITS.resolve(options.limits).patchChars;
  return {
    success: true,
    files_changed: [...tracked, ...untracked],
    stat: [stat, ...notes].filter(Boolean).join('\n'),
    patch: full.length > cap ? `${full.slice(0, cap)}\n[... patch cut at ${cap} of ${full.length} characters]` : full,
    patch_truncated: full.length > cap,
    full_patch_chars: full.length,
    withheld,
  };
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
