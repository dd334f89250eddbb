// The parallel walk's results are put in a fixed order in JS; these check that order, the bounded keeper and the
// newline counter the match confirmation relies on.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, searchIn } from '../test/helpers.js';
import { BoundedBest, comparePaths } from './internal/bounded-best.js';

describe('comparePaths', () => {
  it('orders component by component, like a sorted directory walk', () => {
    const paths = ['a.b/y', 'a/x', 'a-b/z', 'a/b/c', 'ab', 'A', 'a/x.ts', '\u{1F600}', '\uFFFD', 'z'];
    expect([...paths].sort(comparePaths)).toEqual([
      'A',
      'a/b/c',
      'a/x',
      'a/x.ts',
      'a-b/z',
      'a.b/y',
      'ab',
      'z',
      '\uFFFD',
      '\u{1F600}',
    ]);
    expect(comparePaths('same/path', 'same/path')).toBe(0);
  });
});

describe('BoundedBest', () => {
  it('keeps exactly the smallest N of any arrival order', () => {
    const values = Array.from({ length: 500 }, (_, i) => (i * 7919) % 500);
    const best = new BoundedBest<number>(10, (a, b) => a - b);
    for (const value of values) best.add(value);
    expect(best.sorted()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(best.size).toBe(10);
    expect(best.wouldKeep(3)).toBe(true);
    expect(best.wouldKeep(10)).toBe(false);
    const none = new BoundedBest<number>(0, (a, b) => a - b);
    none.add(1);
    expect(none.sorted()).toEqual([]);
  });
});

describe('grep order and early stops', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    const files: Record<string, string> = {};
    for (let d = 0; d < 12; d++) {
      for (let f = 0; f < 12; f++) files[`d${d}/f${f}.txt`] = 'needle one\nother\nneedle two\n';
    }
    files['d1.x/a.txt'] = 'needle dot dir\n';
    files['d1-x/a.txt'] = 'needle dash dir\n';
    ws = makeWorkspace(files);
  });
  afterEach(() => ws.cleanup());

  it('shows the first matches in path order whatever order the parallel walk finds them in', async () => {
    const full = ok(await searchIn(ws, { action: 'grep', pattern: 'needle', max_results: 1000 }));
    expect(full.count).toBe(12 * 12 * 2 + 2);
    const shown = full.content.split('\n').map((line) => line.slice(0, line.indexOf(':', line.indexOf(':') + 1)));
    const sorted = [...shown].sort((a, b) => {
      const [pa = '', la = ''] = a.split(':');
      const [pb = '', lb = ''] = b.split(':');
      return comparePaths(pa, pb) || Number(la) - Number(lb);
    });
    expect(shown).toEqual(sorted);
    expect(shown.slice(0, 4)).toEqual(['d0/f0.txt:1', 'd0/f0.txt:3', 'd0/f1.txt:1', 'd0/f1.txt:3']);
    expect(shown.indexOf('d1/f9.txt:3')).toBeLessThan(shown.indexOf('d1-x/a.txt:1'));
    expect(shown.indexOf('d1-x/a.txt:1')).toBeLessThan(shown.indexOf('d1.x/a.txt:1'));
    const top = ok(await searchIn(ws, { action: 'grep', pattern: 'needle', max_results: 5 }));
    expect(top.content.split('\n')).toEqual(full.content.split('\n').slice(0, 5));
    expect(top).toMatchObject({ count: full.count, shown: 5, count_is_lower_bound: false });
  });

  it('a search stopped by the count limit answers the same every time (sorted fallback)', async () => {
    const limits = { countLimit: 30 };
    const answers = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle', max_results: 7 }, { limits }));
      expect(out).toMatchObject({ count: 30, shown: 7, count_is_lower_bound: true });
      answers.add(out.content);
    }
    expect(answers.size).toBe(1);
    expect([...answers][0]?.split('\n')[0]).toBe('d0/f0.txt:1:needle one');
  });

  it('confirms matches deep in a file larger than one read buffer, skipping chunks without wanted lines', async () => {
    const line = `${'x'.repeat(99)}\n`;
    const body = `${line.repeat(30_000)}needle deep\n${line.repeat(15_000)}needle deeper\n`; // about 4.5 MB
    writeFileSync(join(ws.root, 'big.log'), body);
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle deep', path: 'big.log' }));
    expect(out.content.split('\n')).toEqual(['big.log:30001:needle deep', 'big.log:45002:needle deeper']);
    expect(out.note ?? '').not.toContain('dropped');
  });
});
