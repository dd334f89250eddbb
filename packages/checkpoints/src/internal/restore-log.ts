import type { StoreCore } from './core.js';
import { git } from './git.js';
import { parseMeta } from './meta.js';
import { type DiffEntry, parseTreeDiff, treeDiffArgs } from './restore-plan.js';

/** What a restore needs to know about the history between the checkpoint it brings back and the newest one. */
export interface RestorePlan {
  /** The checkpoint restored to (full id). */
  readonly target: string;
  /** The newest checkpoint the plan was made against. */
  readonly head: string;
  /** Files that differ between `head` (have) and `target` (want), limited to the asked paths. */
  readonly entries: DiffEntry[];
  /** Paths changed after `target` by someone other than a recorded call (or, for a branch, by another branch). */
  readonly foreign: Set<string>;
}

const ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/u;

/**
 * Plans a restore with two git reads run side by side: a `git log` of `to..head` without diffs (commit objects only,
 * so its cost does not grow with the files each checkpoint changed) and one `diff-tree` of `head` against `to` (what
 * differs, with modes and blob ids, in one call). The store's history is one line of commits, so the oldest commit of
 * the listing has `to` as its parent, which gives its full id; the checkpoints in the range made by others (found
 * before a call, plain snapshots, another branch's calls) are usually none, and only when there are some are their
 * files read, in one more call. Undefined when this cannot answer (an empty range, an id that is not an ancestor, any
 * git failure): the caller then takes the step-by-step path.
 */
export async function planFromLog(
  core: StoreCore,
  to: string,
  head: string,
  paths: readonly string[],
  branch: string | undefined,
): Promise<RestorePlan | undefined> {
  if (!/^[0-9a-f]{4,64}$/u.test(to)) return undefined;
  const [listed, diffed] = await Promise.all([
    git(core.git, ['log', '-z', '--format=%H%x00%P%x00%B', `${to}..${head}`]),
    git(core.git, treeDiffArgs(head, to, paths)),
  ]);
  if (!listed.ok || !diffed.ok) return undefined;
  const commits = parseLog(listed.stdout);
  const target = commits.at(-1)?.parent;
  if (target === undefined || !target.startsWith(to) || commits[0]?.id !== head) return undefined;
  const others = commits.filter((commit) => {
    const meta = parseMeta(commit.message, '');
    const owner = meta.branch;
    return (
      meta.kind === 'before' ||
      meta.kind === 'snapshot' ||
      (branch !== undefined && owner !== undefined && owner !== branch)
    );
  });
  const foreign = new Set<string>();
  for (let i = 0; i < others.length; i += 500) {
    const ids = others.slice(i, i + 500).map((commit) => commit.id);
    const out = await git(core.git, ['log', '--no-walk=unsorted', ...LOG_RAW, ...ids]);
    if (!out.ok) return undefined;
    for (const commit of parseLog(out.stdout)) for (const path of commit.paths) foreign.add(path);
  }
  return { target, head, entries: parseTreeDiff(diffed.stdout), foreign };
}

/** `git log` arguments that list each commit's id, parent, message and the files it changed (as raw lines). */
const LOG_RAW = ['-z', '--raw', '--no-renames', '--no-abbrev', '--format=%H%x00%P%x00%B'];

interface LoggedCommit {
  readonly id: string;
  readonly parent: string | undefined;
  readonly message: string;
  /** Files the commit changed (only when the listing asked for `--raw`). */
  readonly paths: string[];
}

/**
 * Reads `log -z [--raw] --format=%H%x00%P%x00%B` output. Fields are taken by position (a path may hold any byte but NUL),
 * and a raw line is recognised by its leading colon, which neither a commit id nor a path taken by position can have.
 */
function parseLog(stdout: Buffer): LoggedCommit[] {
  const tokens = stdout.toString('utf8').split('\0');
  const commits: LoggedCommit[] = [];
  let i = 0;
  while (i + 2 < tokens.length) {
    const id = tokens[i]!.replace(/^\n/u, '');
    if (!ID.test(id)) break;
    const parent = tokens[i + 1]!.split(' ')[0] || undefined;
    const paths: string[] = [];
    const commit = { id, parent, message: tokens[i + 2]!.trim(), paths };
    i += 3;
    while (i + 1 < tokens.length && /^\n?:/u.test(tokens[i]!)) {
      paths.push(tokens[i + 1]!);
      i += 2;
    }
    commits.push(commit);
  }
  return commits;
}
