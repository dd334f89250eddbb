import { readFileSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';
import { applyHunks } from './internal/patch-apply.js';
import { parsePatch } from './internal/patch-parse.js';
import { DEFAULT_EDITOR_LIMITS } from './limits.js';

type Out = Record<string, unknown> & { success: boolean; error_code?: string; error?: string };

const LINES = 80_000;
const bigText = () => Array.from({ length: LINES }, (_, i) => `line ${i}\n`).join('');
const bigPatch = () =>
  `*** Begin Patch\n*** Update File: big.txt\n${Array.from({ length: LINES }, (_, i) => `@@\n-line ${i}\n+LINE ${i}\n`).join('')}*** End Patch\n`;

// 50,000 equal lines and an old_string of 500 of them plus one line that is nowhere: every window matches
// almost to the end, the case that made every loose tier cost lines × old_string lines.
const missText = () => '    x = 1;\n'.repeat(50_000);
const missOld = () => `${'x = 1;\n'.repeat(500)}y = 2;\n`;

function hunksOf(patch: string) {
  const parsed = parsePatch(patch);
  if (!parsed.ok || parsed.ops[0]?.op !== 'update') throw new Error('test patch did not parse');
  return parsed.ops[0].hunks;
}

describe('bounded work: locating hunks and loose matches', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({});
  });
  afterEach(() => ws.cleanup());

  it('a patch of 80,000 one-line hunks applies, every hunk placed exactly', async () => {
    ws.write('big.txt', bigText());
    const out = (await handleEditor(
      { action: 'patch', patch: bigPatch(), dry_run: true },
      { workspaceRoot: ws.root, limits: { maxReportedHunks: LINES } },
    )) as Out & { files: Array<{ hunks: Array<{ strategy: string }>; hunks_total?: number }> };
    expect(out.success).toBe(true);
    expect(out.files[0]!.hunks).toHaveLength(LINES);
    expect(out.files[0]!.hunks_total).toBeUndefined();
    expect(out.files[0]!.hunks.every((h) => h.strategy === 'exact')).toBe(true);
  });

  it('the response lists the first maxReportedHunks hunk reports and counts the rest; the diff is cut', async () => {
    ws.write('big.txt', bigText());
    const out = (await handleEditor({ action: 'patch', patch: bigPatch() }, { workspaceRoot: ws.root })) as Out & {
      files: Array<{ hunks: Array<{ start_line: number }>; hunks_total?: number; added: number; removed: number }>;
      diff: string;
      diff_truncated: boolean;
      message: string;
    };
    expect(out.success).toBe(true);
    expect(out.files[0]!.hunks).toHaveLength(1000);
    expect(out.files[0]!.hunks.at(-1)!.start_line).toBe(1000);
    expect(out.files[0]!).toMatchObject({ hunks_total: LINES, added: LINES, removed: LINES });
    expect(out.message).toContain('maxReportedHunks');
    expect(out.diff_truncated).toBe(true);
    expect(out.diff.split('\n').length).toBeLessThan(410);
    expect(readFileSync(ws.path('big.txt'), 'utf8')).toBe(bigText().replaceAll('line', 'LINE'));
  });

  it('an edit whose 501-line old_string misses in 50,000 lines answers with its miss report', async () => {
    ws.write('miss.txt', missText());
    const out = (await handleEditor(
      { action: 'edit', file_path: 'miss.txt', old_string: missOld(), new_string: 'z' },
      { workspaceRoot: ws.root },
    )) as Out;
    expect(out).toMatchObject({ success: false, error_code: 'not_found_in_file' });
  });

  it('other work runs while hunks are located: a small call started later finishes first', async () => {
    const order: string[] = [];
    const big = applyHunks(bigText(), hunksOf(bigPatch()), false).then((r) => order.push(`big ${r.ok}`));
    const small = applyHunks(
      'a\nb\n',
      hunksOf('*** Begin Patch\n*** Update File: s\n@@\n-a\n+A\n*** End Patch'),
      false,
    );
    const timer = new Promise<void>((done) => setImmediate(() => done(void order.push('timer'))));
    await Promise.all([big, small.then((r) => order.push(`small ${r.ok}`)), timer]);
    expect(order).toEqual(['small true', 'timer', 'big true']);
  });

  it('an abort while hunks are located stops the search at its next pause', async () => {
    const controller = new AbortController();
    const order: string[] = [];
    setImmediate(() => {
      order.push('abort');
      controller.abort();
    });
    const result = await applyHunks(bigText(), hunksOf(bigPatch()), false, DEFAULT_EDITOR_LIMITS, controller.signal);
    order.push('answered');
    expect(result).toMatchObject({ ok: false, stop: 'aborted' });
    expect(order).toEqual(['abort', 'answered']);
  });

  it('an abort reaches a patch mid-search through the handler, and an edit miss mid-search', async () => {
    ws.write('big.txt', bigText());
    ws.write('miss.txt', missText());
    const aborted = () => {
      const controller = new AbortController();
      // Aborted at the first turn of the event loop: while the file is read or, at the latest, while it is searched.
      setImmediate(() => controller.abort());
      return { workspaceRoot: ws.root, signal: controller.signal };
    };
    const patched = (await handleEditor({ action: 'patch', patch: bigPatch() }, aborted())) as Out;
    // The patch is read in paced steps too, so the abort may reach it there, before any hunk is located.
    expect(patched).toMatchObject({ success: false, error_code: 'aborted' });
    expect(patched.error).toMatch(/located|read/);
    const edited = (await handleEditor(
      { action: 'edit', file_path: 'miss.txt', old_string: missOld(), new_string: 'z' },
      aborted(),
    )) as Out;
    expect(edited).toMatchObject({ success: false, error_code: 'aborted' });
    // With loose matching off, the miss report (which ranks windows of the whole file) is paced too.
    const exact = (await handleEditor(
      { action: 'edit', file_path: 'miss.txt', old_string: missOld(), new_string: 'z', exact: true },
      aborted(),
    )) as Out;
    expect(exact).toMatchObject({ success: false, error_code: 'aborted' });
    expect(readFileSync(ws.path('big.txt'), 'utf8')).toBe(bigText());
  });

  it('a request over the maxMatchWork budget is refused as too_large, naming what to do', async () => {
    ws.write('big.txt', bigText());
    // Every line of old_string is in the file (re-indented), but never all in a row: each of the 100 places of its
    // rarest line costs 500 comparisons in each indentation-insensitive tier.
    ws.write('blocks.txt', `${'    y = 2;\n'}${'    x = 1;\n'.repeat(499)}`.repeat(100));
    const limits = { maxMatchWork: 50_000 };
    const patched = (await handleEditor(
      { action: 'patch', patch: bigPatch() },
      { workspaceRoot: ws.root, limits },
    )) as Out;
    expect(patched).toMatchObject({ success: false, error_code: 'too_large', file: 'big.txt' });
    expect(patched.error).toMatch(/maxMatchWork.*split the patch/su);
    const edited = (await handleEditor(
      { action: 'edit', file_path: 'blocks.txt', old_string: `y = 2;\n${'x = 1;\n'.repeat(500)}`, new_string: 'z' },
      { workspaceRoot: ws.root, limits },
    )) as Out;
    expect(edited).toMatchObject({ success: false, error_code: 'too_large', limit: 'maxMatchWork' });
    expect(edited.error).toContain('Split the edit');
    expect(readFileSync(ws.path('big.txt'), 'utf8')).toBe(bigText());
  });
});
