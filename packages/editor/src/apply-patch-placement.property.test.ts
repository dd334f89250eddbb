import { describe, expect, it } from 'vitest';
import { applyReplacements } from './internal/apply-edit.js';
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

interface Case {
  text: string;
  patch: string;
  expected: string;
}

/**
 * A file of few distinct lines (so blocks repeat) and changes at known places, written as apply_patch hunks without
 * line numbers or '@@' lines, as a commit rendered for Codex would be: the true result is known.
 */
function makeCase(seed: number): Case {
  const pick = random(seed);
  const words = ['a', 'b', '', '}', 'return x'];
  const lines = Array.from({ length: 8 + pick(30) }, () => words[pick(words.length)]!);
  const hunks: string[] = [];
  const out: string[] = [];
  let at = 0;
  while (at < lines.length) {
    const start = at + pick(6);
    const removed = pick(3);
    const before = Math.min(pick(3), start - at);
    const after = pick(3);
    if (start + removed + after > lines.length) break;
    const added = Array.from({ length: pick(3) + (removed === 0 ? 1 : 0) }, () => `new ${pick(4)}`);
    out.push(...lines.slice(at, start), ...added);
    hunks.push(
      '@@',
      ...lines.slice(start - before, start).map((l) => ` ${l}`),
      ...lines.slice(start, start + removed).map((l) => `-${l}`),
      ...added.map((l) => `+${l}`),
      ...lines.slice(start + removed, start + removed + after).map((l) => ` ${l}`),
    );
    at = start + removed;
    if (before + removed + after === 0) return makeCase(seed + 7_919); // a hunk with no old lines would be an append
    out.push(...lines.slice(at, at + after));
    at += after;
  }
  out.push(...lines.slice(at));
  const text = lines.map((l) => `${l}\n`).join('');
  const patch = ['*** Begin Patch', '*** Update File: f', ...hunks, '*** End Patch'].join('\n');
  return { text, patch, expected: out.map((l) => `${l}\n`).join('') };
}

describe('apply_patch placement never applies a hunk at the wrong place', () => {
  it('over 1,500 generated patches full of repeated lines, every success is the true result', async () => {
    let applied = 0;
    let firstOccurrence = 0;
    let refused = 0;
    for (let seed = 1; seed <= 1_500; seed++) {
      const c = makeCase(seed);
      const parsed = parsePatch(c.patch);
      if (!parsed.ok || parsed.ops[0]?.op !== 'update') continue;
      const result = await applyHunks(c.text, parsed.ops[0].hunks, true);
      if (!result.ok) {
        refused++;
        continue;
      }
      const done = applyReplacements(c.text, normalizeLineEndings(c.text), result.replacements).text;
      expect(done, `seed ${seed}\n${c.patch}`).toBe(c.expected);
      applied++;
      if (result.hunks.some((h) => h.strategy === 'first_occurrence')) firstOccurrence++;
    }
    // The generator makes every kind of case: applied outright, applied through a proof, and refused.
    expect(applied).toBeGreaterThan(300);
    expect(firstOccurrence).toBeGreaterThan(30);
    expect(refused).toBeGreaterThan(30);
  });
});
