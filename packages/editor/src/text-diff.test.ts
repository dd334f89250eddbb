// Editor's line-diff exports are its own API over a shared internal: their signatures are pinned here (checked by `tsc`
// in the package's typecheck), so a change of the internal entry that reaches them fails instead of shipping.
import { expect, expectTypeOf, it } from 'vitest';
import { type ChangedLines, changedLines, unifiedTextDiff } from './index.js';

it('keeps the public signatures of unifiedTextDiff, changedLines and ChangedLines, and their answers', () => {
  expectTypeOf(unifiedTextDiff).toEqualTypeOf<
    (before: string, after: string, names: { old: string; new: string }, context?: number) => string
  >();
  expectTypeOf(changedLines).toEqualTypeOf<(before: string, after: string) => ChangedLines[]>();
  expectTypeOf<ChangedLines>().toEqualTypeOf<{
    readonly oldStart: number;
    readonly oldLines: number;
    readonly newStart: number;
    readonly newLines: number;
  }>();
  expect(unifiedTextDiff('a\nb\n', 'a\nc\n', { old: 'a/x', new: 'b/x' })).toBe(
    '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n',
  );
  expect(unifiedTextDiff('a\nb\nc\nd\n', 'a\nb\nc\nD\n', { old: 'o', new: 'n' }, 0)).toBe(
    '--- o\n+++ n\n@@ -4,1 +4,1 @@\n-d\n+D\n',
  );
  expect(unifiedTextDiff('same\n', 'same\n', { old: 'a', new: 'b' })).toBe('');
  expect(changedLines('a\nb\nc\n', 'new\na\nb\nC\n')).toEqual([
    { oldStart: 0, oldLines: 0, newStart: 0, newLines: 1 },
    { oldStart: 2, oldLines: 1, newStart: 3, newLines: 1 },
  ]);
});
