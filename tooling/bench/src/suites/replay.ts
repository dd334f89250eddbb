import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type BenchRow, type BenchSuite, median, unmeasured } from '../harness.js';
import { gitText } from '../replay/git-history.js';
import { type FormatTally, type RepositoryReplay, replayRepository } from '../replay/replay.js';
import type { CommitReplay, ReplayOutcome } from '../replay/replay-commit.js';
import { repoRoot } from './support.js';

const suite = 'replay';
const ENV = 'BOUGH_REPLAY_REPOS';
/** Path of Codex's applier: its `codex` binary through a link named `apply_patch` (it then reads a patch on stdin). */
const PEER_ENV = 'BOUGH_REPLAY_APPLY_PATCH';
/** Time one repository may take before the replay stops taking commits, so the suite stays within a few minutes. */
const BUDGET_MS = 35_000;

/** A short name for a repository path: `/work/.mirror/psf+requests/repo` → `psf/requests`. */
function label(path: string): string {
  let name = path.replace(/\/+$/u, '');
  if (/^(repo|\.git)$/u.test(basename(name))) name = dirname(name);
  return basename(name)
    .replace(/\.git$/u, '')
    .replace('+', '/');
}

const byCount = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => `${key} ×${n}`)
    .join(', ');

function summary(t: FormatTally): string {
  const parts = [`${t.tried} tried, ${t.identical} identical`];
  parts.push(`refused ${Object.keys(t.refused).length ? byCount(t.refused) : '0'}`, `wrong ${t.wrong}`);
  if (Object.keys(t.skipped).length) parts.push(`skipped: ${byCount(t.skipped)}`);
  return parts.join('; ');
}

/** Refusals by policy rather than fidelity: the editor never writes credential-like names (SECURITY.md). */
const byDesign = (o: ReplayOutcome) => o.kind === 'refused' && o.code === 'protected_path';

/**
 * Commits the peer reproduced that the editor did not (`git apply` for the unified diff, Codex for apply_patch),
 * refusals by design aside.
 */
const missedByUs = (commits: readonly CommitReplay[], format: 'unified' | 'applyPatch' = 'unified') =>
  commits.filter((c) => {
    const [peer, ours] = format === 'unified' ? [c.gitApply, c.unified] : [c.peerApplyPatch, c.applyPatch];
    return peer.kind === 'identical' && ours.kind !== 'identical' && !byDesign(ours);
  }).length;

function describe(c: CommitReplay, format: 'unified' | 'applyPatch'): string | undefined {
  const o: ReplayOutcome = c[format];
  if (o.kind === 'refused') return `${format} ${c.sha.slice(0, 10)} refused ${o.code}: ${o.detail.slice(0, 200)}`;
  if (o.kind === 'wrong') return `${format} ${c.sha.slice(0, 10)} WRONG: ${o.detail.slice(0, 200)}`;
  return undefined;
}

function rowsFor(name: string, r: RepositoryReplay): BenchRow[] {
  const gitIdentical = r.gitApply.identical;
  const ap = r.applyPatch;
  const peer = r.peerApplyPatch;
  const ambiguous = `apply_patch hunks not unique: ${r.ambiguousHunks.first} at the first occurrence, ${r.ambiguousHunks.later} later`;
  const { oursMs, gitMs } = r.timed;
  const patches = oursMs.length;
  const [ours, git] = [median(oursMs), median(gitMs)];
  const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  return [
    {
      suite,
      name: `${name}: unified diffs reproduced`,
      detail: `last ${r.commits.length} non-merge commits: unified diff (git diff -M) reproduced byte for byte`,
      unit: 'commits',
      ours: r.unified.identical,
      peer: gitIdentical,
      peerLabel: 'git apply of the same diff',
      lowerIsBetter: false,
      goal: '= git apply (protected names aside), 0 wrong',
      met: r.unified.wrong === 0 && missedByUs(r.commits) === 0,
      note: summary(r.unified),
    },
    {
      suite,
      name: `${name}: apply_patch renderings reproduced`,
      detail: 'the apply_patch rendering of the same commits, reproduced byte for byte',
      unit: 'commits',
      ours: ap.identical,
      ...(peer.tried > 0
        ? { peer: peer.identical, peerLabel: 'Codex apply_patch on the same rendering', lowerIsBetter: false }
        : {}),
      goal: peer.tried > 0 ? '= Codex (protected names aside), 0 wrong' : '0 wrong',
      met: ap.wrong === 0 && missedByUs(r.commits, 'applyPatch') === 0,
      note: `${summary(ap)}; ${ambiguous}; ${peer.tried > 0 ? `Codex: ${summary(peer)}` : `no Codex peer (${PEER_ENV} unset)`}`,
    },
    patches === 0
      ? unmeasured(suite, `${name}: time per patch`, 'ms', 'no commit reproduced by both')
      : {
          suite,
          name: `${name}: time per patch`,
          detail: `median time per patch over ${patches} commits both reproduced (unified diff; each the fastest of 3 runs, taking turns)`,
          unit: 'ms',
          ours,
          peer: git,
          peerLabel: 'git apply (process included)',
          goal: '≤ 0.5×',
          met: ours / git <= 0.5,
          note: `ours: handleEditor in-process on a fresh copy of the touched files; means ${mean(oursMs).toFixed(1)} vs ${mean(gitMs).toFixed(1)} ms`,
        },
  ];
}

/** Issue 35's real-commit replay: the project's own history and the repositories named in BOUGH_REPLAY_REPOS. */
export const replaySuite: BenchSuite = {
  name: suite,
  async run({ scratch, scale, log }) {
    const maxCommits = Math.max(20, Math.round(Number(process.env.BOUGH_REPLAY_COMMITS ?? '300') * scale));
    const rows: BenchRow[] = [];
    const missing: BenchRow[] = [];
    const applyPatchPeer = process.env[PEER_ENV] || undefined;
    const listed = (process.env[ENV] ?? '').split(':').filter(Boolean);
    const repos: { name: string; path: string }[] = [{ name: 'bough (own history)', path: repoRoot }];
    for (const path of listed) {
      let problem: string | undefined;
      if (!existsSync(path)) problem = 'the path does not exist';
      else {
        try {
          gitText(path, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
        } catch {
          problem = 'not a git repository with commits';
        }
      }
      if (problem) missing.push(unmeasured(suite, label(path), 'commits', `not measured: ${path}: ${problem}`));
      else repos.push({ name: label(path), path });
    }
    for (const [i, repo] of repos.entries()) {
      const t0 = performance.now();
      let result: RepositoryReplay;
      try {
        result = await replayRepository(repo.path, {
          maxCommits,
          budgetMs: BUDGET_MS,
          scratch: join(scratch, String(i)),
          ...(applyPatchPeer ? { applyPatchPeer } : {}),
        });
      } catch (error) {
        rows.push(
          unmeasured(suite, repo.name, 'commits', `not measured: ${String((error as Error).message).slice(0, 160)}`),
        );
        continue;
      }
      const cut = result.commits.length < maxCommits ? ' (stopped by the time budget or the history)' : '';
      log(`${repo.name}: ${result.commits.length} commits in ${((performance.now() - t0) / 1000).toFixed(1)} s${cut}`);
      const cases = result.commits.flatMap((c) => [describe(c, 'unified'), describe(c, 'applyPatch')]);
      for (const line of cases.filter(Boolean).slice(0, 5)) log(`  ${line}`);
      rows.push(...rowsFor(repo.name, result));
    }
    rows.push(...missing);
    if (listed.length === 0) {
      rows.push(
        unmeasured(
          suite,
          'public repositories',
          'commits',
          `not measured: ${ENV} is not set (colon-separated paths of local git repositories, e.g. bare clones; the bench never uses the network)`,
        ),
      );
    }
    return rows;
  },
};
