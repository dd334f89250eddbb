import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayableCommits } from './git-history.js';
import { PREPARE_LIMITS, type PrepareLimits, prepareCommit } from './prepare-commit.js';
import { applyGit, applyOurs, type CommitReplay, type ReplayOutcome, replayCommit } from './replay-commit.js';

/** The time of a run that reproduced the commit again (a run that did not counts as never finishing). */
const timeOf = (o: ReplayOutcome) => (o.kind === 'identical' ? o.ms : Number.POSITIVE_INFINITY);

/** The counts of one rendering over a repository's replay. */
export interface FormatTally {
  /** Commits replayed in this rendering (not skipped). */
  tried: number;
  identical: number;
  /** Refusals by `error_code` (for `git apply`, by exit status). */
  refused: Record<string, number>;
  wrong: number;
  /** Skipped commits by reason. */
  skipped: Record<string, number>;
}

/** A repository's replay: every commit's outcomes and the tallies per rendering. */
export interface RepositoryReplay {
  readonly commits: readonly CommitReplay[];
  readonly unified: FormatTally;
  readonly applyPatch: FormatTally;
  readonly gitApply: FormatTally;
  /** The apply_patch peer (Codex's applier) on the same rendering; all skipped when no peer was given. */
  readonly peerApplyPatch: FormatTally;
  /**
   * Per-patch times (ms) of the commits the editor (unified diff) and `git apply` both reproduced, in commit order:
   * each the fastest of {@link ReplayOptions.timingRounds} runs, the two appliers taking turns.
   */
  readonly timed: { readonly oursMs: readonly number[]; readonly gitMs: readonly number[] };
  /** apply_patch hunks that are not unique, summed (see {@link CommitReplay.ambiguousHunks}). */
  readonly ambiguousHunks: { readonly first: number; readonly later: number };
}

/** How {@link replayRepository} runs. */
export interface ReplayOptions {
  /** Most commits to replay, newest first (default 300). */
  readonly maxCommits?: number;
  /** Revision to walk back from (default HEAD). */
  readonly rev?: string;
  /** Where the three working copies go (default: a fresh temp directory, removed at the end). */
  readonly scratch?: string;
  readonly limits?: PrepareLimits;
  /** An apply_patch program reading the patch on stdin, e.g. Codex's binary through a link named `apply_patch`. */
  readonly applyPatchPeer?: string;
  /** Stop taking new commits once this much time (ms) has passed and at least 20 were replayed (default: no limit). */
  readonly budgetMs?: number;
  /**
   * Runs of each applier per reproduced commit, taking turns (git apply, ours, git apply, ours…), of which the fastest
   * is kept (default 3): one run of each mostly measures the busy machine's scheduling, not the appliers.
   */
  readonly timingRounds?: number;
  /** Called after each commit, e.g. to log progress. */
  readonly onCommit?: (replay: CommitReplay, index: number, total: number) => void;
}

/** An empty {@link FormatTally}. */
export function emptyTally(): FormatTally {
  return { tried: 0, identical: 0, refused: {}, wrong: 0, skipped: {} };
}

/** Counts one outcome into a tally. */
export function count(tally: FormatTally, outcome: ReplayOutcome): void {
  if (outcome.kind === 'skipped') {
    tally.skipped[outcome.reason] = (tally.skipped[outcome.reason] ?? 0) + 1;
    return;
  }
  tally.tried++;
  if (outcome.kind === 'identical') tally.identical++;
  else if (outcome.kind === 'wrong') tally.wrong++;
  else tally.refused[outcome.code] = (tally.refused[outcome.code] ?? 0) + 1;
}

/**
 * Replays the non-merge commits of the git repository at `repo` (a work tree or a bare git dir): each commit's parent
 * files are written for the touched paths only, its diff applied by the editor (unified and apply_patch) and by
 * `git apply` on identical copies, and every result compared byte for byte and by mode with the commit.
 */
export async function replayRepository(repo: string, options: ReplayOptions = {}): Promise<RepositoryReplay> {
  const commits = replayableCommits(repo, options.maxCommits ?? 300, options.rev);
  const scratch = options.scratch ?? mkdtempSync(join(tmpdir(), 'bough-replay-'));
  const result = {
    commits: [] as CommitReplay[],
    unified: emptyTally(),
    applyPatch: emptyTally(),
    gitApply: emptyTally(),
    peerApplyPatch: emptyTally(),
    timed: { oursMs: [] as number[], gitMs: [] as number[] },
    ambiguousHunks: { first: 0, later: 0 },
  };
  const t0 = performance.now();
  try {
    for (const [index, commit] of commits.entries()) {
      if (index >= 20 && performance.now() - t0 > (options.budgetMs ?? Number.POSITIVE_INFINITY)) break;
      const prepared = prepareCommit(repo, commit, options.limits ?? PREPARE_LIMITS);
      const replay = await replayCommit(scratch, prepared, options.applyPatchPeer);
      result.commits.push(replay);
      count(result.unified, replay.unified);
      count(result.applyPatch, replay.applyPatch);
      count(result.gitApply, replay.gitApply);
      count(result.peerApplyPatch, replay.peerApplyPatch);
      result.ambiguousHunks.first += replay.ambiguousHunks.first;
      result.ambiguousHunks.later += replay.ambiguousHunks.later;
      if (replay.unified.kind === 'identical' && replay.gitApply.kind === 'identical' && prepared.skip === undefined) {
        let [ours, git] = [replay.unified.ms, replay.gitApply.ms];
        for (let round = 1; round < (options.timingRounds ?? 3); round++) {
          git = Math.min(
            git,
            timeOf(applyGit(join(scratch, 'git'), prepared.unified, prepared.before, prepared.after)),
          );
          const again = await applyOurs(join(scratch, 'unified'), prepared.unified, prepared.before, prepared.after);
          ours = Math.min(ours, timeOf(again));
        }
        result.timed.oursMs.push(ours);
        result.timed.gitMs.push(git);
      }
      options.onCommit?.(replay, index, commits.length);
    }
  } finally {
    if (options.scratch === undefined) rmSync(scratch, { recursive: true, force: true });
  }
  return result;
}
