import { fileDiff } from '@bough/workspace/internal';
import { describe, expect, it } from 'vitest';
import { applyReplacements, type Replacement } from './internal/apply-edit.js';
import { pacedFileDiff } from './internal/change-diff.js';
import { normalizeLineEndings } from './internal/line-endings.js';
import { applyHunks } from './internal/patch-apply.js';
import { parsePatch } from './internal/patch-parse.js';

/** A small seeded generator, so a failure replays. */
function random(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state % n;
  };
}

const WORDS = ['a', 'b', '', '}', 'x = 1'];
const NAMES = { old: 'a/f', new: 'b/f' };
const WIDE = { context: 3, maxLines: 100_000, maxLineChars: 400 };

/** A file of few distinct lines and line-aligned replacements of it (some keep lines, some are pure insertions). */
function makeCase(seed: number): { before: string; replacements: Replacement[] } {
  const pick = random(seed);
  const lines = Array.from({ length: 1 + pick(40) }, () => WORDS[pick(WORDS.length)]!);
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  starts.push(at);
  const before = lines.join('\n') + (pick(4) === 0 ? '' : '\n');
  const replacements: Replacement[] = [];
  if (seed % 2 === 0) {
    // Changes of characters, not lines: inside a line, across line breaks, appended after a last line without one.
    for (let at = pick(6); at <= before.length; at += 1 + pick(12)) {
      const end = Math.min(at + pick(5), before.length);
      replacements.push({ start: at, end, text: ['', 'y', '\n', 'z\n', '\nw'][pick(5)]! });
      at = end;
    }
    return { before, replacements };
  }
  for (let line = pick(4); line < lines.length; line += 1 + pick(6)) {
    const span = pick(3);
    const end = Math.min(line + span, lines.length);
    const kept = lines.slice(line, end).filter(() => pick(2) === 0);
    const added = Array.from({ length: pick(3) }, () => WORDS[pick(WORDS.length)]!);
    const text = [...kept, ...added].map((l) => `${l}\n`).join('');
    replacements.push({ start: starts[line]!, end: Math.min(starts[end]!, before.length), text });
    line = end;
  }
  return { before, replacements };
}

describe('the patch diff built from its replacements', () => {
  it('turns the old text into the new one and counts what a whole-file diff counts (300 seeded cases)', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { before, replacements } = makeCase(seed);
      const done = applyReplacements(before, normalizeLineEndings(before), replacements);
      const ours = await pacedFileDiff(before, done.after, NAMES, WIDE, done.changes);
      const whole = fileDiff(before, done.after, NAMES, WIDE);
      // Both are shortest scripts of the changed lines: the same counts, here where changes are apart.
      expect(ours.added - ours.removed, `seed ${seed}`).toBe(whole.added - whole.removed);
      if (ours.diff === '') {
        expect(done.after, `seed ${seed}`).toBe(before);
        continue;
      }
      // Applying our diff to the old text gives the new text exactly.
      const parsed = parsePatch(ours.diff);
      if (!parsed.ok || parsed.ops[0]!.op !== 'update') throw new Error(`seed ${seed}: ${JSON.stringify(parsed)}`);
      const hunks = await applyHunks(before, parsed.ops[0]!.hunks, false);
      if (!hunks.ok) throw new Error(`seed ${seed}: ${hunks.reason}\n${ours.diff}`);
      expect(applyReplacements(before, normalizeLineEndings(before), hunks.replacements).after, `seed ${seed}`).toBe(
        done.after,
      );
    }
  });

  it('shows only changed lines as changed, the kept lines of a hunk as context', async () => {
    const before = 'a\nb\nc\nd\ne\n';
    const after = 'a\nb\nC\nd\ne\n';
    // The whole hunk (b..d) is one replacement; only c differs.
    const out = await pacedFileDiff(before, after, NAMES, WIDE, [{ oldStart: 2, oldEnd: 8, newStart: 2, newEnd: 8 }]);
    expect(out).toMatchObject({ added: 1, removed: 1 });
    expect(out.diff).toBe('--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n a\n b\n-c\n+C\n d\n e');
  });
});
