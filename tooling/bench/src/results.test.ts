import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadResults, resultsPath, saveResults } from './results.js';

it('keeps the rows of a run, unmeasured figures included, beside the report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bk-results-'));
  try {
    expect(resultsPath('/r/BENCHMARKS.md')).toBe('/r/benchmarks-charts/results.json');
    const results = {
      machine: 'm',
      startedAt: '2026-12-01T00:00:00.000Z',
      seconds: 3,
      rows: [
        { suite: 's', name: 'a', unit: 'ms', ours: 1.5, peer: 2, chart: { id: 'grep', x: 10 } },
        { suite: 's', name: 'b', unit: 'ms', ours: Number.NaN, note: 'failed' },
      ],
    };
    saveResults(join(dir, 'results.json'), results);
    const back = loadResults(join(dir, 'results.json'));
    expect(back).toEqual(results);
    expect(Number.isNaN(back.rows[1]?.ours)).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
