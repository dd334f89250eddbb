import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCheckpointStore } from '@bough/checkpoints';
import { type BenchRow, type BenchSuite, pairedMedians, unmeasured } from '../harness.js';
import { describeConditions, settleDisk } from '../settle.js';
import { bytesUnder, replayGrowth } from './checkpoints-replay.js';

// The peer: what a shadow-git checkpointer does without our care — `git add -A && git commit` into a separate git
// dir whose work tree is the workspace (plain git, no tuning), run in the same process conditions as ours.
function peerGit(peerDir: string, root: string, ...args: string[]): void {
  try {
    execFileSync('git', args, {
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_DIR: peerDir,
        GIT_WORK_TREE: root,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_AUTHOR_NAME: 'p',
        GIT_AUTHOR_EMAIL: 'p@p.invalid',
        GIT_COMMITTER_NAME: 'p',
        GIT_COMMITTER_EMAIL: 'p@p.invalid',
      },
    });
  } catch {
    // `git commit` exits 1 when there is nothing to commit: that run still counts, as it does for the peer.
  }
}

// The peer's repository: plain git, except that its automatic gc (which 10,000 new loose objects start at the first
// commit) runs in the foreground, during the untimed set-up. Detached, it packed and fsynced in the background while
// the rows below were timed, charging its work to whichever side ran beside it.
function initPeer(peerDir: string, root: string): void {
  execFileSync('git', ['init', '-q', '--bare', peerDir]);
  peerGit(peerDir, root, 'config', 'core.bare', 'false');
  peerGit(peerDir, root, 'config', 'gc.autoDetach', 'false');
}

const peerCheckpoint = (peerDir: string, root: string) => {
  peerGit(peerDir, root, 'add', '-A');
  peerGit(peerDir, root, 'commit', '-q', '--no-verify', '-m', 'checkpoint');
};

/**
 * Checkpoints (issue 38): an unchanged 10,000-file tree, a one-file change, a recorded call that changes nothing, a
 * restore of a 100-file change, and the store's growth per checkpoint (one-file changes, and a replay of real commits).
 */
export const checkpointsSuite: BenchSuite = {
  name: 'checkpoints',
  async run({ scratch, scale, conditions }) {
    const suite = 'checkpoints';
    const rows: BenchRow[] = [];
    const root = join(scratch, 'ws');
    const dirs = 100;
    const perDir = 100;
    for (let d = 0; d < dirs; d++) {
      mkdirSync(join(root, `d${d}`), { recursive: true });
      for (let f = 0; f < perDir; f++) writeFileSync(join(root, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`.repeat(20));
    }
    const store = createCheckpointStore({ root, storeDir: join(scratch, 'store') });
    const peerDir = join(scratch, 'peer.git');
    initPeer(peerDir, root);
    const first = await store.snapshot();
    if (!first.success) throw new Error(first.error);
    peerCheckpoint(peerDir, root);
    // The set-up wrote about 30,000 files (tree, store, peer): they reach the disk now, not while rows are timed.
    const settled = await settleDisk();
    const start = [
      conditions ? `suite started with ${describeConditions(conditions)}` : undefined,
      `after the set-up: ${describeConditions(settled)}`,
    ]
      .filter(Boolean)
      .join('; ');
    const runs = Math.max(5, Math.round(15 * scale));

    const snap = async () => {
      const out = await store.snapshot();
      if (!out.success) throw new Error(out.error);
    };
    const [unchanged, unchangedPeer] = await pairedMedians(snap, () => peerCheckpoint(peerDir, root), runs, 2);
    rows.push({
      suite,
      name: 'checkpoint of an unchanged 10,000-file tree',
      unit: 'ms',
      ours: unchanged,
      peer: unchangedPeer,
      peerLabel: 'git add -A && git commit (separate git dir)',
      lowerIsBetter: true,
      goal: '≤ 1.0× and ≤ 30 ms',
      met: unchanged <= unchangedPeer && unchanged <= 30,
      note: 'no status check: the change watch (inotify) saw no event since the last checkpoint',
    });

    // The same without the watch (another platform, a first checkpoint in a process, watchMaxDirs 0): one status check,
    // whose own floor is a bare `git status` of the tree (about 10k lstat calls). ≤ 30 ms is not a goal a status
    // check can meet on a loaded machine, so this row is held to the peer and to the bare status check instead.
    const statusStore = createCheckpointStore({ root, storeDir: join(scratch, 'store'), limits: { watchMaxDirs: 0 } });
    const statusSnap = async () => {
      const out = await statusStore.snapshot();
      if (!out.success) throw new Error(out.error);
    };
    await statusSnap();
    const bareStatus = () => peerGit(peerDir, root, '-c', 'core.untrackedCache=true', 'status', '--porcelain');
    bareStatus();
    const [viaStatus, statusPeer] = await pairedMedians(statusSnap, () => peerCheckpoint(peerDir, root), runs, 1);
    const [viaStatus2, bare] = await pairedMedians(statusSnap, bareStatus, runs, 1);
    rows.push({
      suite,
      name: 'checkpoint of an unchanged 10,000-file tree, watch off (status check)',
      unit: 'ms',
      ours: viaStatus,
      peer: statusPeer,
      peerLabel: 'git add -A && git commit (separate git dir)',
      lowerIsBetter: true,
      goal: '≤ 1.0× and ≤ 1.5× a bare git status',
      met: viaStatus <= statusPeer && viaStatus2 <= 1.5 * bare,
      note: `a bare git status of the same tree (untracked cache on): ${bare.toFixed(1)} ms (ours ${viaStatus2.toFixed(1)} ms beside it)`,
    });

    // A recorded call that changes nothing, beside one status check of the tree (the goal's budget): the cost of `record`.
    const recordNothing = async () => {
      await store.record({ callId: 'noop', tool: 'bench' }, async () => undefined);
    };
    const [nothing, oneCheck] = await pairedMedians(recordNothing, bareStatus, runs, 1);
    rows.push({
      suite,
      name: 'record of a call that changes nothing (10,000 files)',
      unit: 'ms',
      ours: nothing,
      peer: oneCheck,
      peerLabel: 'one git status of the tree (untracked cache on)',
      lowerIsBetter: true,
      goal: '≤ 1.0× (one status check)',
      met: nothing <= oneCheck,
      note: 'checkpoints before and after the call; the change watch saw no event, so neither runs a status check',
    });

    let counter = 0;
    const touchOne = () => writeFileSync(join(root, 'd7', 'f7.txt'), `changed ${counter++}\n`);
    const [oneFile, oneFilePeer] = await pairedMedians(snap, () => peerCheckpoint(peerDir, root), runs, 1, touchOne);
    rows.push({
      suite,
      name: 'checkpoint after a one-file change (10,000 files)',
      unit: 'ms',
      ours: oneFile,
      peer: oneFilePeer,
      peerLabel: 'git add -A && git commit (separate git dir)',
      lowerIsBetter: true,
      goal: '≤ 1.0×',
      met: oneFile <= oneFilePeer,
      note: `the change watch named the changed file, so the status check looks at that path only (${start})`,
    });

    // Store growth: bytes the store's objects grow by per one-file checkpoint, beside the peer's git dir.
    const growthRuns = 10;
    const sizeBefore = [bytesUnder(join(scratch, 'store', 'git', 'objects')), bytesUnder(join(peerDir, 'objects'))];
    for (let i = 0; i < growthRuns; i++) {
      touchOne();
      await snap();
      peerCheckpoint(peerDir, root);
    }
    const growth = (bytesUnder(join(scratch, 'store', 'git', 'objects')) - sizeBefore[0]!) / growthRuns;
    const peerGrowth = (bytesUnder(join(peerDir, 'objects')) - sizeBefore[1]!) / growthRuns;
    rows.push({
      suite,
      name: 'store growth per one-file checkpoint (10,000 files, loose objects)',
      unit: 'bytes',
      ours: growth,
      peer: peerGrowth,
      peerLabel: 'git add -A && git commit (separate git dir)',
      lowerIsBetter: true,
      goal: 'proportional to the change',
      met: growth <= peerGrowth * 1.1,
    });

    // Restore: 100 files changed since the base checkpoint (by someone the store saw: a recorded call), back to base.
    const base = await store.snapshot();
    if (!base.success) throw new Error(base.error);
    peerCheckpoint(peerDir, root);
    const changeHundred = async () => {
      counter++;
      for (let i = 0; i < 100; i++) writeFileSync(join(root, `d${i}`, 'f1.txt'), `edit ${counter}\n`);
      const out = await store.snapshot({ callId: `edit-${counter}`, tool: 'bench' });
      if (!out.success) throw new Error(out.error);
    };
    const restore = async () => {
      const out = await store.restore({ to: base.id });
      if (!out.success) throw new Error(out.error);
    };
    const checkout = () => peerGit(peerDir, root, 'checkout', '-f', 'HEAD', '--', '.');
    const [restored, checkedOut] = await pairedMedians(restore, checkout, runs, 1, changeHundred);
    rows.push({
      suite,
      name: 'restore of a 100-file change (10,000 files)',
      unit: 'ms',
      ours: restored,
      peer: checkedOut,
      peerLabel: 'git checkout -f HEAD -- .',
      lowerIsBetter: true,
      goal: '≤ 1.5×',
      met: restored <= 1.5 * checkedOut,
      note: `ours also checkpoints the state before the restore (no status check: the watch saw nothing since the edit was recorded) and after it (${start})`,
    });

    // Store growth over real history: this repository's newest commits replayed into a fresh workspace.
    const replayRoot = join(scratch, 'replay-ws');
    mkdirSync(replayRoot, { recursive: true });
    const replayStore = createCheckpointStore({
      root: replayRoot,
      storeDir: join(scratch, 'replay-store'),
    });
    const replayPeer = join(scratch, 'replay-peer.git');
    initPeer(replayPeer, replayRoot);
    const growthName = 'store growth per checkpoint, replay of real commits (this repository)';
    const replayed = await replayGrowth(
      replayStore,
      join(scratch, 'replay-store', 'git', 'objects'),
      { objects: join(replayPeer, 'objects'), checkpoint: () => peerCheckpoint(replayPeer, replayRoot) },
      replayRoot,
      scratch,
      Math.max(10, Math.round(30 * scale)),
    );
    rows.push(
      replayed
        ? {
            suite,
            name: growthName,
            unit: 'bytes',
            ours: replayed.ours,
            peer: replayed.peer,
            peerLabel: 'git add -A && git commit (separate git dir)',
            lowerIsBetter: true,
            goal: 'proportional to the change',
            met: replayed.ours <= replayed.peer * 1.1,
            note: `${replayed.commits} commits, loose objects`,
          }
        : unmeasured(suite, growthName, 'bytes', 'the history here is too short (a shallow clone)'),
    );
    return rows;
  },
};
