import { readFileSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';

type Out = Record<string, unknown> & {
  success: boolean;
  error_code?: string;
  files?: Array<{ hunks?: Array<{ strategy: string }> }>;
};

interface Row {
  name: string;
  file: string;
  /** The lines between `*** Update File: f.txt` and `*** End Patch`. */
  hunks: string[];
  /** The file afterwards and each hunk's strategy, or the code of a refusal (the file then stays as it was). */
  expect: { text: string; strategies: string[] } | { refused: string };
}

// The scenarios of Codex's own apply_patch tests, told again with our files and checked against our applier.
const CODEX: Row[] = [
  {
    name: 'two change blocks in one file',
    file: 'foo\nbar\nbaz\nqux\n',
    hunks: ['@@', ' foo', '-bar', '+BAR', '@@', ' baz', '-qux', '+QUX'],
    expect: { text: 'foo\nBAR\nbaz\nQUX\n', strategies: ['exact', 'exact'] },
  },
  {
    name: 'changes far apart, then a line added at the end of the file',
    file: 'a\nb\nc\nd\ne\nf\n',
    hunks: ['@@', ' a', '-b', '+B', '@@', ' c', ' d', '-e', '+E', '@@', ' f', '+g', '*** End of File'],
    expect: { text: 'a\nB\nc\nd\nE\nf\ng\n', strategies: ['exact', 'exact', 'exact'] },
  },
  {
    name: 'a block of only added lines first, a replacement before it after',
    file: 'line1\nline2\nline3\n',
    hunks: ['@@', '+after-context', '+second-line', '@@', ' line1', '-line2', '-line3', '+line2-replacement'],
    expect: { text: 'line1\nline2-replacement\nafter-context\nsecond-line\n', strategies: ['exact', 'exact'] },
  },
  {
    name: 'ASCII dashes in the patch, an en dash and a non-breaking hyphen in the file',
    file: 'import asyncio  # local import \u2013 avoids top\u2011level dep\n',
    hunks: ['@@', '-import asyncio  # local import - avoids top-level dep', '+import asyncio  # HELLO'],
    expect: { text: 'import asyncio  # HELLO\n', strategies: ['unicode_punctuation'] },
  },
  {
    name: 'the first line replaced, with a context line after it',
    file: 'foo\nbar\nbaz\n',
    hunks: ['@@', '-foo', '+FOO', ' bar'],
    expect: { text: 'FOO\nbar\nbaz\n', strategies: ['exact'] },
  },
  {
    name: 'the last line replaced',
    file: 'foo\nbar\nbaz\n',
    hunks: ['@@', ' foo', ' bar', '-baz', '+BAZ'],
    expect: { text: 'foo\nbar\nBAZ\n', strategies: ['exact'] },
  },
  {
    name: 'a line added at the end of the file',
    file: 'foo\nbar\nbaz\n',
    hunks: ['@@', '+quux', '*** End of File'],
    expect: { text: 'foo\nbar\nbaz\nquux\n', strategies: ['exact'] },
  },
  {
    name: 'trailing whitespace in the file and not in the patch',
    file: 'foo   \nbar\t\t\n',
    hunks: ['@@', ' foo', '-bar', '+BAR'],
    expect: { text: 'foo   \nBAR\n', strategies: ['trailing_whitespace'] },
  },
  {
    // Codex's trimmed tier writes the new line unindented here; we need one indentation shift to re-indent it.
    name: 'lines that match only trimmed, with no single indentation shift: refused, not written unindented',
    file: '    foo   \n   bar\t\n',
    hunks: ['@@', ' foo', '-bar', '+BAR'],
    expect: { refused: 'patch_conflict' },
  },
];

// Repeated lines: the first place is taken only when it is provably the right one.
const REPEATED: Row[] = [
  {
    name: 'a repeated block whose second place leaves no room for the next hunk',
    file: 'x = 1\ny = 2\nz\nx = 1\ny = 2\nw\n',
    hunks: ['@@', '-x = 1', '+x = 9', ' y = 2', '@@', '-z', '+Z'],
    expect: { text: 'x = 9\ny = 2\nZ\nx = 1\ny = 2\nw\n', strategies: ['first_occurrence', 'exact'] },
  },
  {
    name: 'a repeated block with room for the next hunk after either place: refused',
    file: 'x = 1\ny = 2\n\nx = 1\ny = 2\nz\n',
    hunks: ['@@', '-x = 1', '+x = 9', ' y = 2', '@@', '-z', '+Z'],
    expect: { refused: 'patch_conflict' },
  },
  {
    name: 'one blank line of a run removed: every place gives the same file',
    file: 'a\n\n\n\nb\n',
    hunks: ['@@', ' ', '-'],
    expect: { text: 'a\n\n\nb\n', strategies: ['first_occurrence'] },
  },
  {
    name: 'a line added inside a run of equal lines, then a change after the run',
    file: 'item\nitem\nitem\nend\n',
    hunks: ['@@', ' item', '+item', '@@', '-end', '+END'],
    expect: { text: 'item\nitem\nitem\nitem\nEND\n', strategies: ['first_occurrence', 'exact'] },
  },
  {
    name: 'the same places, but the next hunk could start inside the run: refused',
    file: 'item\nitem\nitem\nend\n',
    hunks: ['@@', ' item', '+item', '@@', '-item', '+ITEM'],
    expect: { refused: 'patch_conflict' },
  },
  {
    name: "an '@@' line picks the block after it: unique from there",
    file: 'def a():\n    return 1\n\ndef b():\n    return 1\n',
    hunks: ['@@ def b():', '-    return 1', '+    return 2'],
    expect: { text: 'def a():\n    return 1\n\ndef b():\n    return 2\n', strategies: ['exact'] },
  },
  {
    name: 'an added-only block at the end keeps the search where it was',
    file: 'a\nb\n',
    hunks: ['@@', '+c', '@@', '-a', '+A'],
    expect: { text: 'A\nb\nc\n', strategies: ['exact', 'exact'] },
  },
];

describe('apply_patch placement', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({});
  });
  afterEach(() => ws.cleanup());

  it.each([...CODEX, ...REPEATED])('$name', async (row) => {
    ws.write('f.txt', row.file);
    const patch = ['*** Begin Patch', '*** Update File: f.txt', ...row.hunks, '*** End Patch'].join('\n');
    const out = (await handleEditor({ action: 'patch', patch }, { workspaceRoot: ws.root })) as Out;
    const text = readFileSync(ws.path('f.txt'), 'utf8');
    if ('refused' in row.expect) {
      expect(out).toMatchObject({ success: false, error_code: row.expect.refused });
      expect(text).toBe(row.file);
    } else {
      expect(out.success, JSON.stringify(out)).toBe(true);
      expect(text).toBe(row.expect.text);
      expect(out.files?.[0]?.hunks?.map((h) => h.strategy)).toEqual(row.expect.strategies);
    }
  });

  it('a unified diff whose line number misses a repeated block is still refused, never placed first', async () => {
    ws.write('f.txt', 'x = 1\ny = 2\nz\nx = 1\ny = 2\nw\n');
    const patch = ['--- a/f.txt', '+++ b/f.txt', '@@ -9,2 +9,2 @@', '-x = 1', '+x = 9', ' y = 2', ''].join('\n');
    const out = (await handleEditor({ action: 'patch', patch }, { workspaceRoot: ws.root })) as Out;
    expect(out).toMatchObject({ success: false, error_code: 'patch_conflict', candidate_lines: [1, 4] });
  });
});
