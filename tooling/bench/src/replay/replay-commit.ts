import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { handleEditor } from '@bough/editor';
import { GIT_ENV } from './git-history.js';
import type { KnownGap, PreparedCommit, TreeFile } from './prepare-commit.js';

/** How one rendering of a commit fared, with the time it took (ms; ours in-process, `git apply` as a process). */
export type ReplayOutcome =
  | { readonly kind: 'identical'; readonly ms: number }
  | { readonly kind: 'refused'; readonly code: string; readonly detail: string; readonly ms: number }
  | { readonly kind: 'wrong'; readonly detail: string; readonly ms: number }
  | { readonly kind: 'skipped'; readonly reason: string };

/** One commit replayed: the editor on the unified diff and its apply_patch rendering, `git apply` and a peer beside. */
export interface CommitReplay {
  readonly sha: string;
  readonly subject: string;
  readonly unified: ReplayOutcome;
  readonly applyPatch: ReplayOutcome;
  readonly gitApply: ReplayOutcome;
  /** The apply_patch rendering applied by a peer apply_patch program (Codex's), when one was given. */
  readonly peerApplyPatch: ReplayOutcome;
  /** Known editor gaps the commit runs into, per rendering (see {@link KnownGap}). */
  readonly unifiedGaps: readonly KnownGap[];
  readonly applyPatchGaps: readonly KnownGap[];
  /**
   * apply_patch hunks whose old lines occur more than once from where the search starts: `first` where the commit's
   * spot is the first occurrence (Codex's rule picks it), `later` where it is not (Codex's rule would misplace it).
   */
  readonly ambiguousHunks: { readonly first: number; readonly later: number };
}

/** Writes `files` into an empty `dir` with their modes. */
function materialise(dir: string, files: ReadonlyMap<string, TreeFile>): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [path, file] of files) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.bytes);
    chmodSync(target, file.executable ? 0o755 : 0o644);
  }
}

/** Every file under `dir` (directories are not compared: git does not store them), or the first entry that is not a file. */
function filesUnder(dir: string, prefix = '', into = new Map<string, TreeFile | string>()) {
  for (const name of readdirSync(join(dir, prefix))) {
    const relative = prefix === '' ? name : `${prefix}/${name}`;
    const stat = lstatSync(join(dir, relative));
    if (stat.isDirectory()) filesUnder(dir, relative, into);
    else if (!stat.isFile()) into.set(relative, 'not a regular file');
    else into.set(relative, { bytes: readFileSync(join(dir, relative)), executable: (stat.mode & 0o100) !== 0 });
  }
  return into;
}

/** What differs between `dir` and the files it should hold, in a line, or undefined when every byte and mode agrees. */
export function difference(dir: string, expected: ReadonlyMap<string, TreeFile>): string | undefined {
  const actual = filesUnder(dir);
  for (const [path, want] of expected) {
    const got = actual.get(path);
    if (got === undefined) return `${path} is missing`;
    if (typeof got === 'string') return `${path} is ${got}`;
    if (!got.bytes.equals(want.bytes)) return `${path}: ${firstDifference(got.bytes, want.bytes)}`;
    if (got.executable !== want.executable)
      return `${path}: executable is ${got.executable}, the commit has ${want.executable}`;
  }
  for (const path of actual.keys()) if (!expected.has(path)) return `${path} should not exist`;
  return undefined;
}

function firstDifference(got: Buffer, want: Buffer): string {
  let at = 0;
  while (at < got.length && at < want.length && got[at] === want[at]) at++;
  const line = got.subarray(0, at).toString('latin1').split('\n').length;
  const show = (b: Buffer) => JSON.stringify(b.subarray(at, at + 24).toString('latin1'));
  return `differs at byte ${at} (line ${line}): ${show(got)} where the commit has ${show(want)} (${got.length} vs ${want.length} bytes)`;
}

/** Applies `patch` with the editor's `patch` action in `dir` and classifies the result against `expected`. */
export async function applyOurs(
  dir: string,
  patch: string,
  before: ReadonlyMap<string, TreeFile>,
  expected: ReadonlyMap<string, TreeFile>,
): Promise<ReplayOutcome> {
  materialise(dir, before);
  const t0 = performance.now();
  const out = (await handleEditor({ action: 'patch', patch }, { workspaceRoot: dir })) as {
    success: boolean;
    error?: string;
    error_code?: string;
  };
  const ms = performance.now() - t0;
  if (!out.success) return { kind: 'refused', code: out.error_code ?? '?', detail: out.error ?? '', ms };
  const wrong = difference(dir, expected);
  return wrong === undefined ? { kind: 'identical', ms } : { kind: 'wrong', detail: wrong, ms };
}

/** Runs a peer applier (a child process reading the patch on stdin, in `dir`) and classifies the result. */
function applyProcess(
  dir: string,
  argv: readonly string[],
  patch: string,
  before: ReadonlyMap<string, TreeFile>,
  expected: ReadonlyMap<string, TreeFile>,
): ReplayOutcome {
  materialise(dir, before);
  const t0 = performance.now();
  const run = spawnSync(argv[0]!, argv.slice(1), {
    cwd: dir,
    input: patch,
    env: { ...GIT_ENV, GIT_CEILING_DIRECTORIES: dirname(dir) },
  });
  const ms = performance.now() - t0;
  if (run.status !== 0) {
    const detail = `${run.stderr?.toString() ?? ''}${run.stdout?.toString() ?? ''}${run.error?.message ?? ''}`.trim();
    return { kind: 'refused', code: `exit ${run.status}`, detail, ms };
  }
  const wrong = difference(dir, expected);
  return wrong === undefined ? { kind: 'identical', ms } : { kind: 'wrong', detail: wrong, ms };
}

/** Applies a unified diff with `git apply` (a child process, outside any repository) and classifies the result. */
export function applyGit(
  dir: string,
  patch: string,
  before: ReadonlyMap<string, TreeFile>,
  expected: ReadonlyMap<string, TreeFile>,
): ReplayOutcome {
  return applyProcess(dir, ['git', 'apply', '--whitespace=nowarn', '-'], patch, before, expected);
}

/**
 * Replays one prepared commit in sibling directories under `scratch`. `applyPatchPeer` is an apply_patch program that
 * reads a patch on stdin (Codex's: its `codex` binary reached through a link named `apply_patch`); without it, the
 * apply_patch rendering has no peer and `peerApplyPatch` is skipped.
 */
export async function replayCommit(
  scratch: string,
  prepared: PreparedCommit,
  applyPatchPeer?: string,
): Promise<CommitReplay> {
  const { sha, subject } = prepared.commit;
  if (prepared.skip !== undefined) {
    const skipped: ReplayOutcome = { kind: 'skipped', reason: prepared.skip };
    return {
      sha,
      subject,
      unified: skipped,
      applyPatch: skipped,
      gitApply: skipped,
      peerApplyPatch: skipped,
      unifiedGaps: [],
      applyPatchGaps: [],
      ambiguousHunks: { first: 0, later: 0 },
    };
  }
  const { before, after, unified, applyPatch, unifiedGaps, applyPatchGaps } = prepared;
  const gitApply = applyGit(join(scratch, 'git'), unified, before, after);
  const ours = await applyOurs(join(scratch, 'unified'), unified, before, after);
  const notRendered = applyPatch.ok
    ? undefined
    : ({ kind: 'skipped', reason: `apply_patch cannot say: ${applyPatch.reason}` } as const);
  const rendered = applyPatch.ok
    ? await applyOurs(join(scratch, 'apply-patch'), applyPatch.text, before, after)
    : notRendered!;
  const peerApplyPatch: ReplayOutcome = !applyPatch.ok
    ? notRendered!
    : applyPatchPeer === undefined
      ? { kind: 'skipped', reason: 'no apply_patch peer given' }
      : applyProcess(join(scratch, 'peer-apply-patch'), [applyPatchPeer], applyPatch.text, before, after);
  const ambiguousHunks = applyPatch.ok
    ? { first: applyPatch.ambiguousFirst, later: applyPatch.ambiguousLater }
    : { first: 0, later: 0 };
  return {
    sha,
    subject,
    unified: ours,
    applyPatch: rendered,
    gitApply,
    peerApplyPatch,
    unifiedGaps,
    applyPatchGaps,
    ambiguousHunks,
  };
}
