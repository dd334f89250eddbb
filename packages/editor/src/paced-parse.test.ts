import { describe, expect, it } from 'vitest';
import { parsePatch, parsePatchPaced } from './internal/patch-parse.js';

const LINES = 80_000;
const bigPatch = `*** Begin Patch\n*** Update File: big.txt\n${Array.from({ length: LINES }, (_, i) => `@@\n-line ${i}\n+LINE ${i}\n`).join('')}*** End Patch\n`;
const bigDiff = `--- a/big.txt\n+++ b/big.txt\n${Array.from({ length: LINES }, (_, i) => `@@ -${i + 1} +${i + 1} @@\n-line ${i}\n+LINE ${i}\n`).join('')}`;

describe('reading a large patch is paced', () => {
  it.each([
    ['apply_patch', bigPatch],
    ['unified diff', bigDiff],
  ])('%s: a timer set before it fires before it answers, with the same answer as in one go', async (_, text) => {
    const order: string[] = [];
    const timer = new Promise<void>((done) => setImmediate(() => done(void order.push('timer'))));
    const parsed = parsePatchPaced(text).then((p) => {
      order.push('parsed');
      return p;
    });
    const [, paced] = await Promise.all([timer, parsed]);
    expect(order).toEqual(['timer', 'parsed']);
    expect(paced).toEqual(parsePatch(text));
    expect(paced).toMatchObject({ ok: true });
  });

  it('an abort stops it at its next pause', async () => {
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    expect(await parsePatchPaced(bigPatch, controller.signal)).toBe('aborted');
  });
});
