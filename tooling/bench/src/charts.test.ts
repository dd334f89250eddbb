import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { goalRatio, writeCharts } from './charts.js';
import type { BenchRow } from './harness.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('writes one SVG per growth curve and a goal chart beside the report, and embeds them', () => {
  dir = mkdtempSync(join(tmpdir(), 'bk-charts-'));
  const rows: BenchRow[] = [1_000, 10_000, 100_000].flatMap((x) => [
    {
      suite: 's',
      name: `grep ${x}`,
      unit: 'ms',
      ours: x / 100,
      peer: x / 120,
      peerLabel: 'rg -n',
      chart: { id: 'grep', x },
    },
  ]);
  rows.push({ suite: 's', name: 'headline', unit: 'ms', ours: 12, peer: 10, peerLabel: 'rg', goal: '≤ 1.3×' });
  rows.push({ suite: 's', name: 'missed', unit: 'ms', ours: 30, peer: 10, peerLabel: 'rg', goal: '≤ 1.3×' });
  const written = writeCharts(rows, join(dir, 'BENCHMARKS.md'));
  expect(written.files).toEqual(['benchmarks-charts/grep.svg', 'benchmarks-charts/goals.svg']);
  expect(written.markdown).toContain('](benchmarks-charts/grep.svg)');
  const grep = readFileSync(join(dir, 'benchmarks-charts/grep.svg'), 'utf8');
  expect(grep.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  // Every chart is named for screen readers (and for biome's a11y lint, which checks the committed charts).
  expect(grep.split('\n')[1]).toMatch(/^<title>.+<\/title>$/);
  expect(grep.match(/<polyline /g)).toHaveLength(2); // ours and the peer
  expect(grep.match(/<circle /g)).toHaveLength(6);
  const goals = readFileSync(join(dir, 'benchmarks-charts/goals.svg'), 'utf8');
  expect(goals.split('\n')[1]).toBe('<title>Headline rows: ratio ÷ goal (left of the line = goal met)</title>');
  expect(goals).toContain('1.20× (goal 1.3×)');
  expect(goals).toContain('#2ca02c'); // met
  expect(goals).toContain('#d62728'); // missed
  expect(existsSync(join(dir, 'benchmarks-charts/find.svg'))).toBe(false);
});

it('reads a ratio goal and ignores other goals', () => {
  expect(goalRatio({ suite: 's', name: 'n', unit: 'ms', ours: 1, goal: '≤ 1.3×' })).toBe(1.3);
  expect(goalRatio({ suite: 's', name: 'n', unit: 'ms', ours: 1, goal: '≤ 50 ms' })).toBeUndefined();
});
