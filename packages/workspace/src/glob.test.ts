import { expect, it } from 'vitest';
import { globToRegExp } from './glob.js';

it('matches path globs the way ruff per-file rules and protected-name patterns mean them', () => {
  const py = globToRegExp('*.py');
  expect(py.test('a.py')).toBe(true);
  expect(py.test('pkg/sub/a.py')).toBe(true);
  expect(py.test('a.pyc')).toBe(false);
  const tests = globToRegExp('tests/**/*.py');
  expect(tests.test('tests/a.py')).toBe(true);
  expect(tests.test('tests/x/y/a.py')).toBe(true);
  expect(tests.test('src/tests/a.py')).toBe(false);
  expect(globToRegExp('./src/?.ts').test('src/a.ts')).toBe(true);
  expect(globToRegExp('src/?.ts').test('src/ab.ts')).toBe(false);
  expect(globToRegExp('src/*.ts').test('src/a/b.ts')).toBe(false);
  // Literal characters stay literal, and one character is one code point.
  expect(globToRegExp('a+(b).txt').test('a+(b).txt')).toBe(true);
  expect(globToRegExp('a.txt').test('abtxt')).toBe(false);
  expect(globToRegExp('?.key').test('😀.key')).toBe(true);
});
