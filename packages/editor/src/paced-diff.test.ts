import { fileDiff } from '@bough/workspace/internal';
import { describe, expect, it } from 'vitest';
import { pacedFileDiff } from './internal/change-diff.js';

const LIMITS = { context: 3, maxLines: 200, maxLineChars: 200 };
const NAMES = { old: 'a/big.txt', new: 'b/big.txt' };
const before = Array.from({ length: 80_000 }, (_, i) => `line ${i}\n`).join('');
// Every other line changed: far more edits than the diff's cap, the response diff of an 80,000-hunk patch.
const after = Array.from({ length: 80_000 }, (_, i) => (i % 2 ? `LINE ${i}\n` : `line ${i}\n`)).join('');

describe('the response diff of a large change is paced', () => {
  it('returns to the event loop while it compares lines: a timer set before it fires before it answers', async () => {
    const order: string[] = [];
    const timer = new Promise<void>((done) => setImmediate(() => done(void order.push('timer'))));
    const diff = pacedFileDiff(before, after, NAMES, LIMITS).then((d) => {
      order.push('diff');
      return d;
    });
    const [, paced] = await Promise.all([timer, diff]);
    expect(order).toEqual(['timer', 'diff']);
    expect(paced).toEqual(fileDiff(before, after, NAMES, LIMITS));
  });
});
