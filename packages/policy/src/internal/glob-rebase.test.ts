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
    ['sub/**', 'sub', ['**'], true],
    ['**/secrets/**', 'sub', ['**/secrets/**', 'secrets/**'], false],
    ['*.pem', 'sub/deep', ['*.pem'], false],
    ['/etc/**', 'sub', [], false],
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
});
