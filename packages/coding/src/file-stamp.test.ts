import { writeFileSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The settle wait goes through this module's timer. Each test decides how a wait ends: a little early by the wall
// clock (as timers counting whole milliseconds of their own clock can), or with the file written again meanwhile.
const waits = vi.hoisted(() => ({
  onWait: undefined as ((ms: number) => Promise<void>) | undefined,
  asked: [] as number[],
}));
vi.mock('node:timers/promises', async (original) => {
  const real = await original<typeof import('node:timers/promises')>();
  return {
    ...real,
    setTimeout: async (ms: number) => {
      waits.asked.push(ms);
      await (waits.onWait ? waits.onWait(ms) : real.setTimeout(ms));
    },
  };
});

const { FILE_STAMP_SETTLE_MS: SETTLE_MS } = await import('@bough/workspace/internal');
const { currentStamp, stampBeforeRead } = await import('./internal/file-stamp.js');

const BIG = 'x'.repeat(64 * 1024);
const MIN = 1024;
const realSleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'big.txt': BIG });
  waits.onWait = undefined;
  waits.asked = [];
});
afterEach(() => ws.cleanup());

describe('the stamp taken before a read of a big file', () => {
  it('is taken at once for a file that has been quiet for longer than the settle time', async () => {
    await realSleep(SETTLE_MS + 20);
    const got = await stampBeforeRead(ws.path('big.txt'), MIN);
    expect(got?.stamp).toBe(await currentStamp(ws.path('big.txt')));
    expect(waits.asked).toEqual([]);
  });

  it('waits again when a wait ends short of the settle time, instead of giving up the stamp', async () => {
    // The first wait ends 10 ms early; the file itself does not change.
    waits.onWait = (ms) => realSleep(waits.asked.length === 1 ? Math.max(0, ms - 10) : ms);
    writeFileSync(ws.path('big.txt'), `${BIG}!`);
    const got = await stampBeforeRead(ws.path('big.txt'), MIN);
    expect(got?.stamp).toBe(await currentStamp(ws.path('big.txt')));
    expect(waits.asked.length).toBeGreaterThanOrEqual(2);
  });

  it('takes no stamp of a file that keeps changing through every wait', async () => {
    let n = 0;
    waits.onWait = async (ms) => {
      await realSleep(ms);
      writeFileSync(ws.path('big.txt'), `${BIG}${n++}`);
    };
    expect(await stampBeforeRead(ws.path('big.txt'), MIN)).toBeUndefined();
    // Bounded: it gives up after a few waits.
    expect(waits.asked.length).toBeGreaterThan(1);
    expect(waits.asked.length).toBeLessThanOrEqual(4);
  });

  it('takes no stamp of a file smaller than the minimum (the reader hashes those)', async () => {
    writeFileSync(ws.path('small.txt'), 'tiny');
    expect(await stampBeforeRead(ws.path('small.txt'), MIN)).toBeUndefined();
    expect(waits.asked).toEqual([]);
  });
});
