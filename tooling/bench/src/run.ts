import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCharts } from './charts.js';
import { type BenchRow, type BenchSuite, machineDescription } from './harness.js';
import { renderReport } from './report.js';
import { resultsPath, saveResults } from './results.js';
import { currentConditions, describeConditions, type StartConditions, settleDisk } from './settle.js';
import { childTask, runSuiteProcess, saveChildRows } from './suite-process.js';
import { suites } from './suites/index.js';

// Usage: node tooling/bench/dist/run.js [suite ...]   (BENCH_SCALE=0.1 for a quick run; BENCH_OUT to write elsewhere)
// The rows are also kept as benchmarks-charts/results.json: rerender.js renders the report again from them.
// The replay suite also replays local git repositories listed in BOUGH_REPLAY_REPOS (colon-separated paths, e.g. bare
// clones; up to BOUGH_REPLAY_COMMITS commits each, default 300); without it, it replays the project's own history only.
// BOUGH_REPLAY_APPLY_PATCH names Codex's applier (its codex binary through a link named apply_patch) as the peer of the
// apply_patch rendering.
// Every suite starts alike: in a fresh Node process (see suite-process.ts: no memory left by the suites before it),
// after the scratch tree of the one before is removed and the disk settled (`sync`, then a wait for the writeback to
// drain; see settle.ts), so no suite pays for what an earlier one allocated, wrote or removed. The conditions are
// logged and given to the suite. BENCH_SETTLE=0 skips the settle (to reproduce the unsettled order).
const wanted = process.argv.slice(2);
const selected: BenchSuite[] = wanted.length ? suites.filter((suite) => wanted.includes(suite.name)) : suites;
const scale = Number(process.env.BENCH_SCALE ?? '1') || 1;
const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const out = process.env.BENCH_OUT ?? join(repoRoot, 'BENCHMARKS.md');

/** Runs one suite in this process: its scratch tree made, its rows printed, the tree removed. */
async function runSuite(suite: BenchSuite, conditions: StartConditions): Promise<BenchRow[]> {
  const scratch = mkdtempSync(join(tmpdir(), `bk-bench-${suite.name}-`));
  try {
    const got = await suite.run({ scratch, scale, conditions, log: (message) => console.log(`  ${message}`) });
    for (const row of got)
      console.log(
        `  ${row.name}: ${row.ours.toFixed(3)} ${row.unit}${row.peer !== undefined ? ` vs ${row.peer.toFixed(3)}` : ''}`,
      );
    return got;
  } catch (error) {
    console.error(`  suite ${suite.name} failed:`, error);
    return [
      {
        suite: suite.name,
        name: 'suite failed',
        unit: '-',
        ours: Number.NaN,
        note: String((error as Error).message ?? error).slice(0, 200),
      },
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const task = childTask();
if (task) {
  // A suite's own process (see suite-process.ts): run it, hand the rows to the parent, and end even if a suite left
  // a handle open.
  const suite = suites.find((candidate) => candidate.name === task.name);
  if (suite) saveChildRows(task.rowsFile, await runSuite(suite, task.conditions));
  process.exit(suite ? 0 : 1);
}

const startedAt = new Date();
const t0 = performance.now();
const rows: BenchRow[] = [];
const settle = process.env.BENCH_SETTLE !== '0';
for (const suite of selected) {
  const conditions = settle ? await settleDisk() : currentConditions();
  const s0 = performance.now();
  console.log(`▶ ${suite.name} (at the start: ${describeConditions(conditions)})`);
  rows.push(...runSuiteProcess(suite, conditions));
  console.log(`  (${((performance.now() - s0) / 1000).toFixed(1)} s)`);
}
const seconds = (performance.now() - t0) / 1000;
const machine = machineDescription();
const charts = writeCharts(rows, out);
// The raw rows are kept beside the charts, so a change to the report's layout can re-render them (rerender.js).
mkdirSync(dirname(resultsPath(out)), { recursive: true });
saveResults(resultsPath(out), { machine, startedAt: startedAt.toISOString(), seconds, rows });
writeFileSync(out, renderReport(rows, machine, startedAt, seconds, charts.markdown));
console.log(`wrote ${out} (${seconds.toFixed(0)} s)`);
