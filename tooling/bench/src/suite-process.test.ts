import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runSuiteProcess } from './suite-process.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bk-suite-process-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const conditions = { dirtyKb: 1, writebackKb: 2, leftKb: 0, waitedMs: 5, load1: 0.5 };

// A stand-in for run.js in its child role: it answers with its own pid and what the parent told it, as rows.
const CHILD = `import { writeFileSync } from 'node:fs';
const env = process.env;
const seen = JSON.parse(env.BENCH_SUITE_CONDITIONS);
const rows = [
  { suite: env.BENCH_SUITE_CHILD, name: 'pid', unit: '-', ours: process.pid },
  { suite: env.BENCH_SUITE_CHILD, name: 'dirty', unit: 'kB', ours: seen.dirtyKb },
];
writeFileSync(env.BENCH_SUITE_ROWS, JSON.stringify({ machine: '', startedAt: '', seconds: 0, rows }));
`;

it('runs a suite in a fresh process of its own and gets its rows and start conditions across', () => {
  const script = join(dir, 'child.mjs');
  writeFileSync(script, CHILD);
  const rows = runSuiteProcess({ name: 'demo' }, conditions, script);
  expect(rows.map((row) => [row.suite, row.name])).toEqual([
    ['demo', 'pid'],
    ['demo', 'dirty'],
  ]);
  expect(rows[0]!.ours).not.toBe(process.pid);
  expect(rows[1]!.ours).toBe(1);
});

it('turns a suite process that died without rows into a failed row', () => {
  const script = join(dir, 'dies.mjs');
  writeFileSync(script, 'process.exit(3);\n');
  const rows = runSuiteProcess({ name: 'demo' }, conditions, script);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ suite: 'demo', name: 'suite failed', note: 'its process exited with 3' });
  expect(rows[0]!.ours).toBeNaN();
});
