import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { handleBash } from '@bough/bash';
import { runProcess } from '@bough/process';
import { Workspace } from '@bough/workspace';
import { type BenchRow, type BenchSuite, pairedMedians, pairedOps, timeCommand } from '../harness.js';

/** Node's own spawn with both pipes drained by `resume()`; `detached` adds the process group runProcess needs. */
function plainSpawn(argv: readonly string[], options: { detached?: boolean; cwd?: string } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

async function ours(argv: readonly string[], maxOutputBytes?: number): Promise<void> {
  const result = await runProcess(argv, { timeoutMs: 120_000, ...(maxOutputBytes ? { maxOutputBytes } : {}) });
  if (!result.success) throw new Error(result.error);
}

/** Spawn overhead, output drain/cap throughput and path resolution cost (issue 3). */
export const processSuite: BenchSuite = {
  name: 'process+workspace',
  async run({ scratch, scale }) {
    const rows: BenchRow[] = [];
    const suite = 'process+workspace';
    const runs = Math.max(5, Math.round(30 * scale));
    // Interleaved: two back-to-back medians on a busy machine mostly measure which one the noise hit.
    const [spawnOurs, spawnPlain] = await pairedMedians(
      () => ours(['true']),
      () => plainSpawn(['true']),
      Math.max(20, runs * 3),
      3,
    );
    rows.push({
      suite,
      name: "runProcess(['true'])",
      unit: 'ms per call',
      ours: spawnOurs,
      peer: spawnPlain,
      peerLabel: 'child_process.spawn',
      goal: '≤ 1.2×',
      met: spawnOurs <= 1.2 * spawnPlain,
    });

    // The peer must move the bytes through a pipe as we do. `head -c … > /dev/null` (the peer of earlier reports, about
    // 18 ms for 256 MiB) lets head write straight to /dev/null, which copies nothing, so it measured no draining at all.
    const bytes = Math.max(16, Math.round(256 * scale)) * 2 ** 20;
    const drainRuns = Math.max(3, Math.round(5 * scale));
    const drainArgv = ['head', '-c', String(bytes), '/dev/zero'];
    const [drainOurs, catPipe] = await pairedMedians(
      () => ours(drainArgv),
      () => timeCommand(['sh', '-c', `head -c ${bytes} /dev/zero | cat > /dev/null`]),
      drainRuns,
      1,
    );
    rows.push({
      suite,
      name: `drain and cap ${bytes / 2 ** 20} MiB of output`,
      unit: 'ms',
      ours: drainOurs,
      peer: catPipe,
      peerLabel: 'head -c … | cat > /dev/null',
      goal: '≤ 2×',
      met: drainOurs <= 2 * catPipe,
      note: 'the same work on both sides: every byte read from a pipe (`head -c … > /dev/null`, the earlier peer, reads none through a pipe)',
    });

    // The floor for a Node reader, measured interleaved with ours.
    const [oursVsNode, nodeDrain] = await pairedMedians(
      () => ours(drainArgv),
      () => plainSpawn(drainArgv, { detached: true }),
      drainRuns,
      1,
    );
    rows.push({
      suite,
      name: `drain and cap ${bytes / 2 ** 20} MiB, against Node draining alone`,
      unit: 'ms',
      ours: oursVsNode,
      peer: nodeDrain,
      peerLabel: 'spawn (detached) + stdout.resume()',
      note: 'the floor for a Node reader using public stream APIs',
    });

    // Spawn floors: runProcess and the bash tool must put the child in its own process group (detached: true).
    const spawnRuns = Math.max(20, Math.round(100 * scale));
    const [trueOurs, trueDetached] = await pairedMedians(
      () => ours(['true']),
      () => plainSpawn(['true'], { detached: true }),
      spawnRuns,
      5,
    );
    rows.push({
      suite,
      name: "runProcess(['true']), against a detached spawn",
      unit: 'ms per call',
      ours: trueOurs,
      peer: trueDetached,
      peerLabel: 'child_process.spawn, detached',
      note: 'same process-group set-up on both sides',
    });

    const root = join(scratch, 'ws');
    mkdirSync(join(root, 'a/b/c'), { recursive: true });
    writeFileSync(join(root, 'a/b/c/file.txt'), 'x');
    const ws = await Workspace.open(root);
    const [resolveOps, realpathOps] = await pairedOps(
      () => ws.resolve('a/b/c/file.txt', 'read'),
      () => realpath(join(root, 'a/b/c/file.txt')),
    );
    rows.push({
      suite,
      name: 'Workspace.resolve of a 4-level path',
      unit: 'µs per path',
      ours: 1e6 / resolveOps,
      peer: 1e6 / realpathOps,
      peerLabel: 'fs.promises.realpath alone',
    });

    const bashRequest = { command: 'true' };
    const bashTrue = async () => {
      const response = await handleBash(bashRequest, { workspaceRoot: root });
      if ('error_code' in response) throw new Error(response.error);
    };
    const [bashOurs, bashDetached] = await pairedMedians(
      bashTrue,
      () => plainSpawn(['true'], { cwd: root, detached: true }),
      spawnRuns,
      5,
    );
    rows.push({
      suite,
      name: "bash 'true' via handleBash, against a detached spawn",
      unit: 'ms per call',
      ours: bashOurs,
      peer: bashDetached,
      peerLabel: 'child_process.spawn, detached',
      note: "same process-group set-up on both sides; the search suite's row compares with a plain spawn",
    });
    return rows;
  },
};
