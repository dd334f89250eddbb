import type { StoreCore } from './core.js';
import { git } from './git.js';
import { parseMeta } from './meta.js';
import type { DiffEntry } from './restore-plan.js';

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
const ZERO = /^0+$/u;

/**
 * Plans a restore from one `git log --raw` of `to..head`: the store's history is one line of commits, each with one
 * parent, so the state at `to` of a path is the old side of the oldest change to it in the range and its state now is
 * the new side of the newest; the same listing names the range's changes made by others and, through the oldest
 * commit's parent, the full id of `to`. One process instead of a resolve, a tree diff and a history read.
 * Undefined when the listing cannot answer (an empty range, an id that is not an ancestor, any git failure): the caller
 * then takes the step-by-step path.
 */
export async function planFromLog(
  core: StoreCore,
  to: string,
  head: string,
  paths: readonly string[],
  branch: string | undefined,
): Promise<RestorePlan | undefined> {
  if (!/^[0-9a-f]{4,64}$/u.test(to)) return undefined;
  const out = await git(core.git, [
    'log',
    '-z',
    '--raw',
    '--no-renames',
    '--no-abbrev',
    '--format=%H%x00%P%x00%B',
    `${to}..${head}`,
  ]);
  if (!out.ok) return undefined;
  const commits = parseRawLog(out.stdout);
  const oldest = commits.at(-1);
  const target = oldest?.parent;
  if (target === undefined || !target.startsWith(to) || commits[0]?.id !== head) return undefined;
  const inScope = (path: string) => paths.length === 0 || paths.some((p) => path === p || path.startsWith(`${p}/`));
  const net = new Map<string, { want?: Side; have?: Side }>();
  const foreign = new Set<string>();
  for (let i = commits.length - 1; i >= 0; i--) {
    const commit = commits[i]!;
    const meta = parseMeta(commit.message, '');
    const owner = meta.branch;
    const byOther =
      meta.kind === 'before' ||
      meta.kind === 'snapshot' ||
      (branch !== undefined && owner !== undefined && owner !== branch);
    for (const change of commit.changes) {
      if (byOther) foreign.add(change.path);
      if (!inScope(change.path)) continue;
      const seen = net.get(change.path);
      if (seen) seen.have = change.after;
      else net.set(change.path, { want: change.before, have: change.after });
    }
  }
  const entries: DiffEntry[] = [];
  for (const [path, { want, have }] of [...net].sort(([a], [b]) => byteOrder(a, b))) {
    if (want?.mode === have?.mode && want?.blob === have?.blob) continue; // changed and changed back
    entries.push({ path, ...(want ? { want } : {}), ...(have ? { have } : {}) });
  }
  return { target, head, entries, foreign };
}

interface Side {
  readonly mode: string;
  readonly blob: string;
}

interface LoggedCommit {
  readonly id: string;
  readonly parent: string | undefined;
  readonly message: string;
  readonly changes: { readonly path: string; readonly before?: Side; readonly after?: Side }[];
}

/**
 * Reads `log -z --raw --format=%H%x00%P%x00%B` output. Fields are taken by position (a path may hold any byte but NUL),
 * and a raw line is recognised by its leading colon, which neither a commit id nor a path taken by position can have.
 */
function parseRawLog(stdout: Buffer): LoggedCommit[] {
  const tokens = stdout.toString('utf8').split('\0');
  const commits: LoggedCommit[] = [];
  let i = 0;
  while (i + 2 < tokens.length) {
    const id = tokens[i]!.replace(/^\n/u, '');
    if (!ID.test(id)) break;
    const parent = tokens[i + 1]!.split(' ')[0] || undefined;
    const changes: LoggedCommit['changes'] = [];
    const commit = { id, parent, message: tokens[i + 2]!.trim(), changes };
    i += 3;
    while (i + 1 < tokens.length && /^\n?:/u.test(tokens[i]!)) {
      const [modeA = '', modeB = '', blobA = '', blobB = ''] = tokens[i]!.replace(/^\n?:/u, '').split(' ');
      changes.push({
        path: tokens[i + 1]!,
        ...(ZERO.test(modeA) ? {} : { before: { mode: modeA, blob: blobA } }),
        ...(ZERO.test(modeB) ? {} : { after: { mode: modeB, blob: blobB } }),
      });
      i += 2;
    }
    commits.push(commit);
  }
  return commits;
}

/** git's path order (bytes). */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
