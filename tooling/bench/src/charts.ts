import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { BenchRow } from './harness.js';
import { ratio } from './report.js';

// Hand-written SVG: no charting library or service, so the charts come from the same run's rows and nothing else.

/** Which growth curves the report draws, by the `chart.id` the suites put on their rows. */
const CURVES: Record<string, { title: string; x: string; formatX: (x: number) => string }> = {
  grep: { title: 'grep: time against files searched', x: 'files', formatX: compact },
  find: { title: 'find: time against files listed', x: 'files', formatX: compact },
  read: { title: 'read a window near the end: time against file size', x: 'file size', formatX: bytes },
  clone: { title: 'Branch.clone: time against messages', x: 'messages', formatX: compact },
};

const OURS = '#1f77b4';
const PEER = '#ff7f0e';
const W = 560;
const H = 300;
const PAD = { left: 64, right: 16, top: 36, bottom: 64 };

function compact(n: number): string {
  return n >= 1e6 ? `${+(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${+(n / 1e3).toFixed(1)}k` : String(n);
}

function bytes(n: number): string {
  return n >= 2 ** 30
    ? `${+(n / 2 ** 30).toFixed(1)} GB`
    : n >= 2 ** 20
      ? `${+(n / 2 ** 20).toFixed(0)} MB`
      : `${+(n / 1024).toFixed(0)} kB`;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function ms(value: number): string {
  return value >= 1000
    ? `${+(value / 1000).toFixed(1)} s`
    : value >= 10
      ? `${value.toFixed(0)} ms`
      : `${+value.toFixed(2)} ms`;
}

interface Series {
  readonly name: string;
  readonly color: string;
  readonly points: readonly { x: number; y: number }[];
}

/** A log–log line chart of one or two series. */
function lineChart(title: string, xName: string, formatX: (x: number) => string, series: readonly Series[]): string {
  const all = series.flatMap((s) => s.points).filter((p) => p.x > 0 && p.y > 0);
  const xs = [...new Set(all.map((p) => p.x))].sort((a, b) => a - b);
  const lx = (v: number) => Math.log10(v);
  const [x0, x1] = [lx(Math.min(...xs)), lx(Math.max(...xs))];
  const ys = all.map((p) => p.y);
  const y0 = Math.floor(lx(Math.min(...ys)));
  const y1 = Math.ceil(lx(Math.max(...ys))) + (Math.ceil(lx(Math.max(...ys))) === y0 ? 1 : 0);
  const px = (x: number) => PAD.left + ((lx(x) - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
  const py = (y: number) => H - PAD.bottom - ((lx(y) - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);
  const parts: string[] = [
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${esc(title)}</text>`,
  ];
  for (let e = y0; e <= y1; e++) {
    const y = py(10 ** e);
    parts.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y}" y2="${y}" stroke="#ddd"/>`,
      `<text x="${PAD.left - 6}" y="${y + 4}" text-anchor="end" font-size="11">${esc(ms(10 ** e))}</text>`,
    );
  }
  for (const x of xs) {
    parts.push(
      `<line x1="${px(x)}" x2="${px(x)}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#eee"/>`,
      `<text x="${px(x)}" y="${H - PAD.bottom + 16}" text-anchor="middle" font-size="11">${esc(formatX(x))}</text>`,
    );
  }
  parts.push(
    `<text x="${W / 2}" y="${H - PAD.bottom + 34}" text-anchor="middle" font-size="12">${esc(xName)} (log scale)</text>`,
  );
  series.forEach((s, i) => {
    const pts = s.points.filter((p) => p.x > 0 && p.y > 0).sort((a, b) => a.x - b.x);
    if (pts.length === 0) return;
    parts.push(
      `<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${pts.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const p of pts) {
      parts.push(
        `<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="3" fill="${s.color}"><title>${esc(`${s.name}: ${ms(p.y)} at ${formatX(p.x)}`)}</title></circle>`,
      );
    }
    const ly = H - 14;
    const lxPos = PAD.left + i * 250;
    parts.push(
      `<rect x="${lxPos}" y="${ly - 9}" width="12" height="4" fill="${s.color}"/>`,
      `<text x="${lxPos + 18}" y="${ly - 4}" font-size="11">${esc(s.name.slice(0, 40))}</text>`,
    );
  });
  return svg(W, H, title, parts);
}

/** The heading and accessible name of the goals chart. */
const GOALS_TITLE = 'Headline rows: ratio ÷ goal (left of the line = goal met)';

/** One SVG document; `title` is its accessible name (the `<title>` element screen readers and linters look for). */
function svg(width: number, height: number, title: string, parts: readonly string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">\n<title>${esc(title)}</title>\n<rect width="100%" height="100%" fill="white"/>\n${parts.join('\n')}\n</svg>\n`;
}

/** The goal of a row as a ratio (from "≤ 1.3×"), when it is one. */
export function goalRatio(row: BenchRow): number | undefined {
  const found = /^≤\s*([\d.]+)×$/.exec(row.goal ?? '');
  return found ? Number(found[1]) : undefined;
}

/** Every row whose goal is a ratio: its ratio divided by the goal, as bars (1 = exactly at the goal). */
function goalChart(rows: readonly BenchRow[]): string | undefined {
  const items = rows
    .map((row) => ({ row, r: ratio(row), goal: goalRatio(row) }))
    .filter(
      (item): item is { row: BenchRow; r: number; goal: number } => item.r !== undefined && item.goal !== undefined,
    );
  if (items.length === 0) return undefined;
  const barH = 16;
  const labelW = 380;
  const plotW = 300;
  const height = 50 + items.length * (barH + 6) + 30;
  const max = Math.max(2, ...items.map((i) => i.r / i.goal));
  const px = (v: number) => labelW + (Math.min(v, max) / max) * plotW;
  const parts: string[] = [
    `<text x="${(labelW + plotW) / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${esc(GOALS_TITLE)}</text>`,
    `<line x1="${px(1)}" x2="${px(1)}" y1="30" y2="${height - 24}" stroke="#333" stroke-dasharray="4 3"/>`,
    `<text x="${px(1)}" y="${height - 10}" text-anchor="middle" font-size="11">goal</text>`,
  ];
  items.forEach(({ row, r, goal }, i) => {
    const y = 36 + i * (barH + 6);
    const v = r / goal;
    const name = `${row.suite}: ${row.name}`;
    parts.push(
      `<text x="${labelW - 6}" y="${y + 12}" text-anchor="end" font-size="10">${esc(name.length > 70 ? `${name.slice(0, 69)}…` : name)}</text>`,
      `<rect x="${labelW}" y="${y}" width="${(px(v) - labelW).toFixed(1)}" height="${barH}" fill="${v <= 1 ? '#2ca02c' : '#d62728'}"><title>${esc(`${name}: ${r.toFixed(2)}× against a goal of ${goal}×`)}</title></rect>`,
      `<text x="${(px(v) + 4).toFixed(1)}" y="${y + 12}" font-size="10">${r.toFixed(2)}× (goal ${goal}×)</text>`,
    );
  });
  return svg(labelW + plotW + 120, height, GOALS_TITLE, parts);
}

/** The chart files of one report, relative to the report's directory, and their markdown. */
export interface WrittenCharts {
  readonly markdown: string;
  readonly files: readonly string[];
}

/**
 * Writes the SVG charts of a run into a folder beside the report (`benchmarks-charts/` for BENCHMARKS.md) and returns
 * the markdown that embeds them. A chart whose rows this run did not produce is left out.
 */
export function writeCharts(rows: readonly BenchRow[], reportPath: string): WrittenCharts {
  const folder = `${basename(reportPath, '.md').toLowerCase()}-charts`;
  const dir = join(dirname(reportPath), folder);
  const charts: { file: string; alt: string; body: string }[] = [];
  for (const [id, curve] of Object.entries(CURVES)) {
    const tagged = rows.filter((row) => row.chart?.id === id && Number.isFinite(row.ours));
    if (tagged.length === 0) continue;
    const ours: { x: number; y: number }[] = [];
    const peer: { x: number; y: number }[] = [];
    for (const row of tagged) {
      const x = row.chart?.x ?? 0;
      ours.push({ x, y: row.ours });
      if (row.peer !== undefined) peer.push({ x, y: row.peer });
    }
    const peerName = tagged.find((row) => row.peerLabel)?.peerLabel;
    const series: Series[] = [{ name: 'bough', color: OURS, points: ours }];
    if (peer.length > 0 && peerName) series.push({ name: peerName, color: PEER, points: peer });
    charts.push({ file: `${id}.svg`, alt: curve.title, body: lineChart(curve.title, curve.x, curve.formatX, series) });
  }
  const goals = goalChart(rows);
  if (goals) charts.push({ file: 'goals.svg', alt: 'Headline rows: ratio against goal', body: goals });
  if (charts.length === 0) return { markdown: '', files: [] };
  mkdirSync(dir, { recursive: true });
  for (const chart of charts) writeFileSync(join(dir, chart.file), chart.body);
  return {
    markdown: charts.map((chart) => `![${chart.alt}](${folder}/${chart.file})`).join('\n'),
    files: charts.map((chart) => `${folder}/${chart.file}`),
  };
}
