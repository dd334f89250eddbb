import { expect, it } from 'vitest';
import { lineMapper } from './line-map.js';

it('moves kept lines by what was added or removed above them and names the hunk of replaced ones', () => {
  const before = 'a\nb\nc\nd\ne\n';
  const map = lineMapper(before, 'new\na\nb\nC\nd\ne\n');
  expect([0, 1, 2, 3, 4].map(map.forward)).toEqual([{ line: 1 }, { line: 2 }, { hunk: 1 }, { line: 4 }, { line: 5 }]);
  expect([0, 1, 3, 4].map(map.region)).toEqual([0, undefined, 1, undefined]);
  const removed = lineMapper(before, 'a\nd\ne\n');
  expect([0, 1, 2, 3, 4].map(removed.forward)).toEqual([
    { line: 0 },
    { hunk: 0 },
    { hunk: 0 },
    { line: 1 },
    { line: 2 },
  ]);
  const appended = lineMapper(before, `${before}f\n`);
  expect([0, 4].map(appended.forward)).toEqual([{ line: 0 }, { line: 4 }]);
  expect(appended.region(5)).toBe(0);
  expect(lineMapper(before, before).forward(3)).toEqual({ line: 3 });
});
