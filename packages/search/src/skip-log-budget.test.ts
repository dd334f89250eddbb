// A tree with thousands of individually ignored or binary files makes ripgrep's skip log cost far more than the search
// itself; past skipLogBytes a find runs again without it (grep keeps no log unless exact_skips asks for the whole of
// it). Results stay exact; only the skip counts become bounds.
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
  it('grep keeps the whole log when exact_skips asks for it, whatever skipLogBytes says', async () => {
    const request = { action: 'grep', pattern: 'needle', max_results: 100, exact_skips: true } as const;
    const exact = ok(await searchIn(ws, request, SMALL_BUDGET));
    expect(exact.skipped).toMatchObject({ ignored: IGNORED, binary: BINARY, lower_bound: false });
    expect(exact.note).not.toContain('at least');
    expect(exact.count).toBe(30);

    const quick = ok(await searchIn(ws, { ...request, exact_skips: false }, SMALL_BUDGET));
    expect(quick.content).toBe(exact.content);
    expect(quick.count).toBe(exact.count);
    expect(quick.count_is_lower_bound).toBe(false);
    expect(quick.skipped.lower_bound).toBe(true);
    expect(quick.skipped.ignored).toBeLessThan(IGNORED);
    expect(quick.skipped.binary).toBeLessThan(BINARY);
    expect(quick.content).not.toContain('secret');
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
    // A lower bound may reach the true count when the last chunk read before the cut held the rest of the log.
    expect(cut.skipped.ignored).toBeLessThanOrEqual(IGNORED);
    expect(cut.note).toContain('at least');
    expect(cut.content).not.toMatch(/\.log$|\.env/m);
  });

  it('leaves small logs alone: a find whose log fits keeps exact counts', async () => {
    const out = ok(await searchIn(ws, { action: 'find', pattern: '**/*' }, { limits: { skipLogBytes: 1 << 20 } }));
    expect(out.skipped).toMatchObject({ ignored: IGNORED, lower_bound: false });
  });
});
