import { describe, expect, it } from 'vitest';
import { type ParsedPatch, parsePatch, parsePatchFiles } from './internal/patch-parse.js';
import { patchFiles } from './patch-files.js';

/** A small seeded generator, so a failure replays. */
function random(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state % n;
  };
}

const APPLY_PATCH = [
  '*** Begin Patch',
  '*** Update File: a.txt',
  '@@ def f():',
  ' keep',
  '-old',
  '+new',
  '*** End of File',
  '*** Add File: b.txt',
  '+one\r',
  '+two',
  '*** Update File: c.txt',
  '*** Move to: d.txt',
  '@@',
  '-x',
  '+y',
  '',
  '@@',
  ' z',
  '*** Delete File: e.txt',
  '*** End Patch',
];

const UNIFIED = [
  'diff --git a/a.txt b/a.txt',
  'old mode 100644',
  'new mode 100755',
  '--- a/a.txt',
  '+++ b/a.txt',
  '@@ -1,3 +1,3 @@',
  ' keep',
  '-old',
  '+new',
  ' end',
  '\\ No newline at end of file',
  'diff --git a/b.txt b/b.txt',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/b.txt',
  '@@ -0,0 +1,2 @@',
  '+one',
  '+two',
  'diff --git a/c.txt b/d.txt',
  'rename from c.txt',
  'rename to d.txt',
  'diff --git a/e.txt b/e.txt',
  'deleted file mode 100644',
  '--- a/e.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-gone',
];

const PIECES = [
  '',
  ' ',
  '-',
  '+',
  '@@',
  '@@ x',
  '*** End of File',
  '*** Add File: z',
  '***',
  '\\ x',
  '+++ b/q',
  '--- a/q',
];

/** The patch with a few lines dropped, doubled or replaced by pieces that often change what it means. */
function mutate(lines: readonly string[], pick: (n: number) => number): string {
  const out = [...lines];
  for (let n = pick(4); n > 0; n--) {
    const at = pick(out.length);
    const how = pick(3);
    if (how === 0) out.splice(at, 1);
    else if (how === 1) out.splice(at, 0, out[at] ?? '');
    else out[at] = PIECES[pick(PIECES.length)]!;
  }
  return out.join(pick(5) === 0 ? '\r\n' : '\n');
}

/** What the file-only reading must agree on: the verdict, the place and reason of a refusal, the files and their kinds. */
function files(parsed: ParsedPatch) {
  if (!parsed.ok) return parsed;
  return parsed.ops.map((op) => [
    op.op,
    op.path,
    op.op === 'update' ? (op.moveTo ?? '') : '',
    'executable' in op ? op.executable : undefined,
  ]);
}

describe('reading only the files of a patch', () => {
  it('accepts, refuses and names files exactly as the full parser does (1,000 seeded mutations of both formats)', () => {
    for (let seed = 1; seed <= 1000; seed++) {
      const pick = random(seed);
      const text = mutate(seed % 2 ? APPLY_PATCH : UNIFIED, pick);
      expect(files(parsePatchFiles(text)), `seed ${seed}:\n${text}`).toEqual(files(parsePatch(text)));
    }
  });

  it('patchFiles answers the same patch twice from one reading, frozen', () => {
    const text = APPLY_PATCH.join('\n');
    const first = patchFiles(text);
    expect(patchFiles(`${text}`)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first.success && Object.isFrozen(first.files)).toBe(true);
    expect(patchFiles(`${text}\n`)).not.toBe(first);
  });
});
