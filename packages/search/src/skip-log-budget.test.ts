// A tree with thousands of individually ignored or binary files makes ripgrep's skip log cost far more than the search
// itself; past skipLogBytes the search runs again without it. Results stay exact; only the skip counts become bounds.
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, searchIn } from '../test/helpers.js';

const IGNORED = 400;
const BINARY = 300;
// A few lines of ripgrep's log: well under what this tree logs, far over its header.
const SMALL_BUDGET = { limits: { skipLogBytes: 16 * 1024 } };

let ws: TempWorkspace;
beforeEach(() => {
  const files: Record<string, string> = { '.gitignore': '*.log\n', '.env': 'needle=secret\n' };
  for (let i = 0; i < IGNORED; i++) files[`logs/d${i % 20}/run${i}.log`] = `needle in log ${i}\n`;
  for (let i = 0; i < 30; i++) files[`src/m${String(i).padStart(2, '0')}.ts`] = `export const needle${i} = ${i};\n`;
  ws = makeWorkspace(files);
  for (let i = 0; i < BINARY; i++) ws.write(`bin/b${i}.dat`, Buffer.from(`x\0needle ${i}\n`));
});
afterEach(() => ws.cleanup());

describe('a skip log past skipLogBytes', () => {
  it('grep: the same lines and count as a run that kept the log, with the skip counts flagged as lower bounds', async () => {
    const request = { action: 'grep', pattern: 'needle', max_results: 100 } as const;
    const exact = ok(await searchIn(ws, request));
    expect(exact.skipped).toMatchObject({ ignored: IGNORED, binary: BINARY, lower_bound: false });
    expect(exact.note).not.toContain('at least');

    const cut = ok(await searchIn(ws, request, SMALL_BUDGET));
    expect(cut.content).toBe(exact.content);
    expect(cut.count).toBe(exact.count);
    expect(cut.count).toBe(30);
    expect(cut.count_is_lower_bound).toBe(false);
    expect(cut.skipped.lower_bound).toBe(true);
    expect(cut.skipped.ignored + cut.skipped.binary).toBeGreaterThan(0);
    expect(cut.skipped.ignored).toBeLessThan(IGNORED + 1);
    expect(cut.skipped.binary).toBeLessThan(BINARY + 1);
    expect(cut.skipped.ignored + cut.skipped.binary).toBeLessThan(IGNORED + BINARY);
    expect(cut.note).toMatch(/at least \d+/);
    expect(cut.content).not.toContain('secret');
  });

  it('find: the same paths in the same order, with the ignored count flagged as a lower bound', async () => {
    const request = { action: 'find', pattern: '**/*', max_results: 1000 } as const;
    const exact = ok(await searchIn(ws, request));
    expect(exact.skipped).toMatchObject({ ignored: IGNORED, lower_bound: false });

    const cut = ok(await searchIn(ws, request, SMALL_BUDGET));
    expect(cut.content).toBe(exact.content);
    expect(cut.count).toBe(exact.count);
    expect(cut.skipped.lower_bound).toBe(true);
    expect(cut.skipped.ignored).toBeGreaterThan(0);
    expect(cut.skipped.ignored).toBeLessThan(IGNORED);
    expect(cut.note).toContain('at least');
    expect(cut.content).not.toMatch(/\.log$|\.env/m);
  });

  it('leaves small logs alone: a search whose log fits keeps exact counts', async () => {
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle0 ' }, { limits: { skipLogBytes: 1 << 20 } }));
    expect(out.skipped).toMatchObject({ ignored: IGNORED, binary: BINARY, lower_bound: false });
  });
});
