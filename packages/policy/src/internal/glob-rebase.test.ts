import { describe, expect, it } from 'vitest';
import { globMatch } from './glob-match.js';
import { rebaseGlob } from './glob-rebase.js';

const PATTERNS = [
  'secrets/**',
  'sub/secrets/**',
  'sub/**',
  'sub/*',
  'sub',
  '**/secrets/**',
  '*.pem',
  'sub/*.key',
  's?b/x*',
  'S[uv]b/[!a]*',
  'sub*',
  '*b/*',
  '[ab',
  '/etc/**',
  'sub/deep/keep.txt',
];
const DIRS = ['sub', 'SUB', 'sub/deep', 'other', 'subway'];
const PATHS = ['x', 'secrets', 'secrets/k.txt', 'a.pem', 'deep', 'deep/keep.txt', 'deep/x/y.key', 'x.key', 'b'];

/** The rebased patterns match `path` (relative to `dir`). */
const matches = (pattern: string, dir: string, path: string) =>
  rebaseGlob(pattern, dir).patterns.some((inside) => globMatch(inside, path));

describe('rebaseGlob: a pattern spelled from a directory below the root', () => {
  it.each(PATTERNS)('%s matches dir/p exactly when a rebased pattern matches p, for every dir and p', (pattern) => {
    for (const dir of DIRS) {
      for (const path of PATHS) {
        expect(matches(pattern, dir, path), `${pattern} under ${dir}: ${path}`).toBe(
          globMatch(pattern, `${dir}/${path}`),
        );
      }
      const whole = globMatch(pattern, dir) || globMatch(pattern, `${dir}/`);
      expect(rebaseGlob(pattern, dir).whole, `${pattern} covers ${dir}`).toBe(whole);
    }
  });

  it.each([
    ['sub/secrets/**', 'sub', ['secrets/**'], false],
    ['secrets/**', 'sub', [], false],
    // Covering the directory, it is a whole deny, and everything below it is left.
    ['sub/**', 'sub', ['**'], true],
    ['**/secrets/**', 'sub', ['**/secrets/**', 'secrets/**'], false],
    ['*.pem', 'sub/deep', ['*.pem'], false],
    ['/etc/**', 'sub', [], false],
    ['sub/?', 'sub', ['?'], false],
  ] as const)('%s under %s gives %j (whole: %s)', (pattern, dir, patterns, whole) => {
    expect(rebaseGlob(pattern, dir)).toEqual({ patterns, whole });
  });

  it('rebasing twice is rebasing once by the joined directory (a subagent of a subagent)', () => {
    for (const pattern of PATTERNS) {
      const once = rebaseGlob(pattern, 'sub/deep');
      const first = rebaseGlob(pattern, 'sub');
      const twice = first.patterns.map((inside) => rebaseGlob(inside, 'deep'));
      for (const path of PATHS) {
        const viaTwo = twice.some((r) => r.patterns.some((inside) => globMatch(inside, path)));
        expect(viaTwo, `${pattern}: ${path}`).toBe(matches(pattern, 'sub/deep', path));
      }
      expect(first.whole || twice.some((r) => r.whole), pattern).toBe(once.whole || first.whole);
    }
  });

  it('agrees with the original on generated patterns and paths, the root included (fixed seed)', () => {
    const tokens = ['a', 'b', 'A', '/', '*', '**', '?', '.', '-', 'é', ']', '[ab]', '[!a]', '[a-b]', '[/]', '[!/]'];
    const more = ['[.]', '[!.]', '[+-/]', '[!-]', './', '/.', '[', '\\', '{a,b}'];
    const chars = ['a', 'b', 'A', '/', '.', '-', 'é', 'x', '[', ']', '!', '\\'];
    let seed = 20261207;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pick = <T>(list: readonly T[]) => list[next(list.length)] as T;
    const text = (from: readonly string[], most: number, least = 0) => {
      let out = '';
      for (let n = least + next(most - least + 1); n > 0; n--) out += pick(from);
      return out;
    };
    let checked = 0;
    for (let round = 0; round < 3000; round++) {
      const pattern = text([...tokens, ...more], 6, 1);
      try {
        globMatch(pattern, 'x');
      } catch {
        continue; // a class the matcher itself cannot compile (`[b-a]`)
      }
      const dir =
        text(chars, 4, 1)
          .replace(/\/+/g, '/')
          .replace(/^\/|\/$/g, '') || 'a';
      const rebased = rebaseGlob(pattern, dir);
      const where = `${pattern} under ${dir}`;
      // The directory itself (the child's root) is denied only as a whole: the policy names `.` by catch-alls alone.
      const named = globMatch(pattern, dir) || globMatch(pattern, `${dir}/`);
      expect(rebased.whole, `${where}: whole`).toBe(named);
      for (let k = 0; k < 8; k++) {
        const path = text(chars, 5, 1);
        if (path === '.' || path === './') continue;
        checked++;
        expect(matches(pattern, dir, path), `${where}: ${path}`).toBe(globMatch(pattern, `${dir}/${path}`));
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });
});
