import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow, BenchSuite } from './harness.js';
import { loadResults, saveResults } from './results.js';
import type { StartConditions } from './settle.js';

// Each suite runs in a fresh Node process. In one long process, the suites before it left the heap and native memory
// they used (gigabytes after the reader, search and code suites), and every child process a suite starts is forked
// from that process: a fork copies its page tables, about 40 ms per GB resident on the 2-core box, so each `git` a
// suite ran cost it 100+ ms more than in a run of that suite alone (the checkpoint rows start 2–5 git processes per
// call, their peers 1–2, so the ratios moved with what ran before). A fresh process gives every suite the same start.

const CHILD = 'BENCH_SUITE_CHILD';
const ROWS = 'BENCH_SUITE_ROWS';
const CONDITIONS = 'BENCH_SUITE_CONDITIONS';

/** In a suite's own process: the suite to run and where its rows go; undefined in the parent run. */
export function childTask(): { name: string; rowsFile: string; conditions: StartConditions } | undefined {
  const name = process.env[CHILD];
  const rowsFile = process.env[ROWS];
  if (!name || !rowsFile) return undefined;
  return { name, rowsFile, conditions: JSON.parse(process.env[CONDITIONS] ?? '{}') as StartConditions };
}

/** Writes a suite's rows for the parent (in the child). */
export function saveChildRows(rowsFile: string, rows: readonly BenchRow[]): void {
  saveResults(rowsFile, { machine: '', startedAt: '', seconds: 0, rows });
}

/**
 * Runs one suite in a fresh Node process (`script`, by default this run's own, with the same flags; output shown as it
 * comes) and returns its rows.
 */
export function runSuiteProcess(
  suite: Pick<BenchSuite, 'name'>,
  conditions: StartConditions,
  script: string = process.argv[1]!,
): BenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'bk-bench-rows-'));
  const rowsFile = join(dir, 'rows.json');
  try {
    const child = spawnSync(process.execPath, [...process.execArgv, script], {
      stdio: 'inherit',
      env: { ...process.env, [CHILD]: suite.name, [ROWS]: rowsFile, [CONDITIONS]: JSON.stringify(conditions) },
    });
    try {
      return [...loadResults(rowsFile).rows];
    } catch {
      const why = child.error?.message ?? `its process exited with ${child.status ?? child.signal}`;
      return [{ suite: suite.name, name: 'suite failed', unit: '-', ours: Number.NaN, note: why.slice(0, 200) }];
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
