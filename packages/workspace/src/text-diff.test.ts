import { expect, it } from 'vitest';
import { changedLines, unifiedTextDiff } from './text-diff.js';

it('gives a git-style diff of whole texts, never cut, and nothing for equal texts', () => {
  const before = Array.from({ length: 600 }, (_, i) => `line ${i}`).join('\n');
  const after = before.replace(/line (\d*7)\b/g, 'LINE $1');
  const diff = unifiedTextDiff(`${before}\n`, `${after}\n`, { old: 'a/f.txt', new: 'b/f.txt' });
  expect(diff.startsWith('--- a/f.txt\n+++ b/f.txt\n@@ -5,7 +5,7 @@\n line 4\n')).toBe(true);
  expect(diff.endsWith('\n')).toBe(true);
  expect(diff).not.toMatch(/diff cut/);
  expect(diff.match(/^\+LINE/gm)).toHaveLength(60);
  expect(unifiedTextDiff('same\n', 'same\n', { old: 'a', new: 'b' })).toBe('');
  expect(unifiedTextDiff('a\nb', 'a\nc', { old: 'a/x', new: 'b/x' })).toBe(
    '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n',
  );
});

it('names the changed line regions, 0-based, insertions and deletions as empty sides', () => {
  expect(changedLines('a\nb\nc\n', 'new\na\nb\nC\n')).toEqual([
    { oldStart: 0, oldLines: 0, newStart: 0, newLines: 1 },
    { oldStart: 2, oldLines: 1, newStart: 3, newLines: 1 },
  ]);
  expect(changedLines('a\nb\nc\nd\n', 'a\nd\n')).toEqual([{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 0 }]);
  expect(changedLines('a\nb', 'a\nb\nc')).toEqual([{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 2 }]);
  expect(changedLines('x\n', 'x\n')).toEqual([]);
});
