import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { BenchRow } from './harness.js';

/** The raw outcome of one run, kept beside the report so it can be rendered again without measuring again. */
export interface RunResults {
  readonly machine: string;
  readonly startedAt: string;
  readonly seconds: number;
  readonly rows: readonly BenchRow[];
}

/** Where the results of a report are kept: in its charts folder (`benchmarks-charts/results.json`). */
export function resultsPath(reportPath: string): string {
  return join(dirname(reportPath), `${basename(reportPath, '.md').toLowerCase()}-charts`, 'results.json');
}

// JSON has no NaN (a row that could not be measured) or Infinity: they are written as strings and read back.
const FIGURES = new Set(['ours', 'peer']);

/** Writes the results as JSON (the folder must exist). */
export function saveResults(path: string, results: RunResults): void {
  const json = JSON.stringify(
    results,
    (_key, value) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value),
    2,
  );
  writeFileSync(path, `${json}\n`);
}

/** Reads results written by {@link saveResults}. */
export function loadResults(path: string): RunResults {
  return JSON.parse(readFileSync(path, 'utf8'), (key, value) =>
    FIGURES.has(key) && typeof value === 'string' ? Number(value) : value,
  ) as RunResults;
}
