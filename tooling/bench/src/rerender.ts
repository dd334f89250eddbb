import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCharts } from './charts.js';
import { renderReport } from './report.js';
import { loadResults, resultsPath, saveResults } from './results.js';

// Usage: node tooling/bench/dist/rerender.js
// Renders BENCHMARKS.md and its charts again from the results the last `pnpm bench` kept, without measuring anything:
// for a change to the report's layout. BENCH_OUT names another report, as for run.js.
const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const out = process.env.BENCH_OUT ?? join(repoRoot, 'BENCHMARKS.md');
const results = loadResults(resultsPath(out));
const charts = writeCharts(results.rows, out);
saveResults(resultsPath(out), results);
writeFileSync(
  out,
  renderReport(results.rows, results.machine, new Date(results.startedAt), results.seconds, charts.markdown),
);
console.log(`wrote ${out} from ${resultsPath(out)}`);
