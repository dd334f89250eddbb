import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** A git mode of a tree entry as git prints it: 100644, 100755, 120000 (symlink), 160000 (submodule), 000000 (none). */
export type GitMode = string;

/** One path of a commit's change, from `git diff-tree --raw -M` (R = rename, the only status that has two paths). */
export interface ChangedEntry {
  readonly status: 'A' | 'M' | 'D' | 'R' | 'T' | 'C' | 'U' | 'X';
  readonly oldMode: GitMode;
  readonly newMode: GitMode;
  readonly oldBlob: string;
  readonly newBlob: string;
  /** The path in the parent (for A, the same as `newPath`). */
  readonly oldPath: string;
  /** The path in the commit (for D, the same as `oldPath`). */
  readonly newPath: string;
}

/** A non-merge commit with its one parent. */
export interface ReplayCommit {
  readonly sha: string;
  readonly parent: string;
  readonly subject: string;
}

const MAX_BUFFER = 512 * 2 ** 20;
/** The environment git runs with: no user or system configuration, so a developer's settings cannot change a diff. */
export const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };

/** Runs git in `repo` (a work tree or a bare git dir) and returns stdout as bytes; throws on a non-zero exit. */
export function gitBytes(repo: string, args: readonly string[], input?: Buffer | string): Buffer {
  return execFileSync('git', ['-c', 'core.quotePath=false', ...args], {
    cwd: repo,
    env: GIT_ENV,
    input,
    maxBuffer: MAX_BUFFER,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** {@link gitBytes} decoded as UTF-8. */
export function gitText(repo: string, args: readonly string[]): string {
  return gitBytes(repo, args).toString('utf8');
}

/** The commits a shallow clone cut off from their parents (their parents are not in the object store). */
function shallowBoundary(repo: string): Set<string> {
  const file = gitText(repo, ['rev-parse', '--git-path', 'shallow']).trim();
  const path = file.startsWith('/') ? file : `${repo}/${file}`;
  if (!existsSync(path)) return new Set();
  return new Set(readFileSync(path, 'utf8').split('\n').filter(Boolean));
}

/**
 * Up to `max` non-merge commits reachable from `rev`, newest first, whose one parent is present: root commits and the
 * commits at a shallow clone's boundary are left out, so a shallow history yields what it can.
 */
export function replayableCommits(repo: string, max: number, rev = 'HEAD'): ReplayCommit[] {
  const boundary = shallowBoundary(repo);
  const out = gitText(repo, [
    'rev-list',
    '--no-merges',
    `--max-count=${max + boundary.size + 1}`,
    '--format=%P%x09%s',
    rev,
  ]);
  const commits: ReplayCommit[] = [];
  const lines = out.split('\n');
  for (let i = 0; i + 1 < lines.length && commits.length < max; i += 2) {
    const sha = lines[i]!.replace(/^commit /u, '').trim();
    const [parents = '', subject = ''] = lines[i + 1]!.split('\t');
    const parentList = parents.split(' ').filter(Boolean);
    if (parentList.length !== 1 || boundary.has(sha)) continue;
    commits.push({ sha, parent: parentList[0]!, subject });
  }
  return commits;
}

/** The files a commit changes against its parent, renames detected (`-M`), read from `git diff-tree -z --raw`. */
export function changedEntries(repo: string, parent: string, commit: string): ChangedEntry[] {
  const fields = gitBytes(repo, ['diff-tree', '-r', '-M', '-z', '--raw', '--no-commit-id', parent, commit])
    .toString('utf8')
    .split('\0');
  const entries: ChangedEntry[] = [];
  let i = 0;
  while (i < fields.length && fields[i]!.startsWith(':')) {
    const [oldMode, newMode, oldBlob, newBlob, statusField] = fields[i]!.slice(1).split(' ') as string[];
    const status = statusField![0] as ChangedEntry['status'];
    const oldPath = fields[i + 1]!;
    const twoPaths = status === 'R' || status === 'C';
    const newPath = twoPaths ? fields[i + 2]! : oldPath;
    entries.push({
      status,
      oldMode: oldMode!,
      newMode: newMode!,
      oldBlob: oldBlob!,
      newBlob: newBlob!,
      oldPath,
      newPath,
    });
    i += twoPaths ? 3 : 2;
  }
  return entries;
}

/**
 * The commit's diff as plain `git diff -M` prints it (a/ and b/ prefixes, 3 lines of context, no colour, no external
 * diff or textconv), as bytes: a file that is not UTF-8 stays as it is.
 */
export function unifiedDiffBytes(repo: string, parent: string, commit: string): Buffer {
  return gitBytes(repo, [
    'diff-tree',
    '-p',
    '-r',
    '-M',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    parent,
    commit,
  ]);
}

/** Sizes of blobs, by one `git cat-file --batch-check`. */
export function blobSizes(repo: string, shas: readonly string[]): Map<string, number> {
  const sizes = new Map<string, number>();
  if (shas.length === 0) return sizes;
  const out = gitBytes(repo, ['cat-file', '--batch-check'], `${shas.join('\n')}\n`).toString('utf8');
  for (const line of out.split('\n')) {
    const [sha, , size] = line.split(' ');
    if (sha && size) sizes.set(sha, Number(size));
  }
  return sizes;
}

/** The contents of blobs, read by one `git cat-file --batch` process. */
export function readBlobs(repo: string, shas: readonly string[]): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>();
  const unique = [...new Set(shas)];
  if (unique.length === 0) return blobs;
  const run = spawnSync('git', ['cat-file', '--batch'], {
    cwd: repo,
    env: GIT_ENV,
    input: `${unique.join('\n')}\n`,
    maxBuffer: MAX_BUFFER,
  });
  if (run.status !== 0) throw new Error(`git cat-file --batch failed: ${run.stderr.toString().slice(0, 300)}`);
  const out = run.stdout;
  let at = 0;
  while (at < out.length) {
    const headerEnd = out.indexOf(0x0a, at);
    const [sha, type, size] = out.subarray(at, headerEnd).toString('latin1').split(' ');
    if (type !== 'blob') throw new Error(`git cat-file: ${sha} is ${type ?? 'missing'}, not a blob`);
    const start = headerEnd + 1;
    blobs.set(sha!, out.subarray(start, start + Number(size)));
    at = start + Number(size) + 1;
  }
  return blobs;
}
