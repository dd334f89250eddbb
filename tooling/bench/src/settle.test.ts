import { describe, expect, it } from 'vitest';
import { describeConditions, pendingWrites, settleDisk } from './settle.js';

const MEMINFO = `MemTotal:       24683772 kB
MemFree:        19431312 kB
Dirty:            590984 kB
Writeback:          1320 kB
WritebackTmp:          0 kB
`;

describe('suite start conditions', () => {
  it('reads the dirty and writeback page cache from /proc/meminfo, not WritebackTmp', () => {
    expect(pendingWrites(MEMINFO)).toEqual({ dirtyKb: 590984, writebackKb: 1320 });
    expect(pendingWrites('MemTotal: 1 kB\n')).toBeUndefined();
  });

  it('describes them in one line for the log and the rows', () => {
    const text = describeConditions({ dirtyKb: 590984, writebackKb: 1320, leftKb: 2048, waitedMs: 4200, load1: 1.25 });
    expect(text).toBe('dirty 577.1 MB, writeback 1.3 MB; 2.0 MB left after sync (4.2 s); load average 1.25');
  });

  it.runIf(process.platform === 'linux')('settles the disk and says how long it waited', async () => {
    const got = await settleDisk(Number.POSITIVE_INFINITY, 10_000);
    expect(got.waitedMs).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(got.dirtyKb + got.writebackKb + got.leftKb + got.load1)).toBe(true);
  });
});
