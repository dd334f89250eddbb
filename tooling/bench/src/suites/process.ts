import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess } from '@branchkit/process';
import { Workspace } from '@branchkit/workspace';
import { type BenchRow, type BenchSuite, commandMedian, opsPerSecond, timeMedian } from '../harness.js';

function plainSpawn(argv: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
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
    const spawnOurs = await timeMedian(() => ours(['true']), runs, 3);
    const spawnPlain = await timeMedian(() => plainSpawn(['true']), runs, 3);
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

    const bytes = Math.max(16, Math.round(256 * scale)) * 2 ** 20;
    const drainOurs = await timeMedian(() => ours(['head', '-c', String(bytes), '/dev/zero']), 3, 1);
    const drainShell = await commandMedian(['sh', '-c', `head -c ${bytes} /dev/zero > /dev/null`], 3);
    rows.push({
      suite,
      name: `drain and cap ${bytes / 2 ** 20} MiB of output`,
      unit: 'ms',
      ours: drainOurs,
      peer: drainShell,
      peerLabel: 'head -c … > /dev/null',
      goal: '≤ 2×',
      met: drainOurs <= 2 * drainShell,
    });

    const root = join(scratch, 'ws');
    mkdirSync(join(root, 'a/b/c'), { recursive: true });
    writeFileSync(join(root, 'a/b/c/file.txt'), 'x');
    const ws = await Workspace.open(root);
    const resolveOps = await opsPerSecond(() => ws.resolve('a/b/c/file.txt', 'read'));
    const realpathOps = await opsPerSecond(() => realpath(join(root, 'a/b/c/file.txt')));
    rows.push({
      suite,
      name: 'Workspace.resolve of a 4-level path',
      unit: 'µs per path',
      ours: 1e6 / resolveOps,
      peer: 1e6 / realpathOps,
      peerLabel: 'fs.promises.realpath alone',
    });
    return rows;
  },
};
