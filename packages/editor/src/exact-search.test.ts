import { readFileSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { drive, WorkMeter } from '@bough/workspace/internal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';
import { ByteScan } from './internal/byte-edit.js';
import { findMatches } from './internal/find-matches.js';

type Out = Record<string, unknown> & { success: boolean; error_code?: string };

// One letter repeated, and a needle of that letter around one other: the input that makes a native search cost
// haystack × needle in one call.
const flat = () => 'a'.repeat(2_000_000);
const spiky = () => `${'a'.repeat(1_500)}b${'a'.repeat(1_500)}`;

const search = (haystack: string, needle: string, signal?: AbortSignal) => {
  const meter = new WorkMeter(Number.POSITIVE_INFINITY, signal);
  return drive(findMatches(haystack, needle, meter), meter);
};

describe('exact search: linear and paced', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({});
  });
  afterEach(() => ws.cleanup());

  it('finds the non-overlapping occurrences left to right, like a plain scan', async () => {
    const cases: Array<[string, string]> = [
      ['aaaa', 'aa'],
      ['abcabcabc', 'cab'],
      [`${'x'.repeat(40)}y${'x'.repeat(40)}y`, `${'x'.repeat(40)}y`],
      [`${'ab'.repeat(300)}c${'ab'.repeat(300)}`, `${'ab'.repeat(200)}c`],
      [`${'a'.repeat(100_000)}b`, `${'a'.repeat(700)}b`],
      ['short', 'longer than the haystack'],
      ['', 'x'],
      ['x', ''],
    ];
    for (const [haystack, needle] of cases) {
      const expected: number[] = [];
      if (needle !== '')
        for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length))
          expected.push(i);
      expect(await search(haystack, needle)).toEqual({ ok: true, value: expected });
    }
  });

  it('a search of repetitive text returns to the event loop: a timer set before it fires before it answers', async () => {
    const order: string[] = [];
    const timer = new Promise<void>((done) => setImmediate(() => done(void order.push('timer'))));
    const found = search(flat(), spiky()).then((r) => order.push(`search ${r.ok && r.value.length}`));
    await Promise.all([timer, found]);
    expect(order).toEqual(['timer', 'search 0']);
  });

  it('an abort stops the search at its next pause', async () => {
    const controller = new AbortController();
    const order: string[] = [];
    setImmediate(() => {
      order.push('abort');
      controller.abort();
    });
    const result = await search(flat(), spiky(), controller.signal);
    order.push('answered');
    expect(result).toEqual({ ok: false, stop: 'aborted' });
    expect(order).toEqual(['abort', 'answered']);
  });

  it('an edit on such a file answers a cancellation with aborted and writes nothing', async () => {
    ws.write('flat.txt', flat());
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    const out = (await handleEditor(
      { action: 'edit', file_path: 'flat.txt', old_string: spiky(), new_string: 'z' },
      { workspaceRoot: ws.root, signal: controller.signal },
    )) as Out;
    expect(out).toMatchObject({ success: false, error_code: 'aborted' });
    expect(readFileSync(ws.path('flat.txt'), 'utf8')).toBe(flat());
  });

  it('the byte shortcut declines repetitive bytes instead of searching them quadratically; the text path edits', async () => {
    const text = `${flat()}b${spiky()}`;
    expect(new ByteScan(spiky(), 'z').finish(Buffer.from(text))).toBeUndefined();
    expect(new ByteScan('ab', 'z').finish(Buffer.from('xxabxx'))).toMatchObject({ start: 2, end: 4 });
    ws.write('flat.txt', text);
    const out = (await handleEditor(
      { action: 'edit', file_path: 'flat.txt', old_string: `b${spiky()}`, new_string: 'z' },
      { workspaceRoot: ws.root },
    )) as Out;
    expect(out).toMatchObject({ success: true });
    expect(readFileSync(ws.path('flat.txt'), 'utf8')).toBe(`${flat()}z`);
  });
});
