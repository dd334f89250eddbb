import { renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FILE_STAMP_SETTLE_MS, fileStamp, rereadAllowedFile, stampParts, stampSettled } from './file-stamp.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'src/a.txt': 'alpha\n' });
});
afterEach(() => ws.cleanup());

describe('fileStamp', () => {
  it('changes with a write of the same size, and is undefined for what is not a regular file', () => {
    const path = ws.path('src/a.txt');
    const before = fileStamp(path);
    expect(before).toBeDefined();
    writeFileSync(path, 'gamma\n');
    expect(fileStamp(path)).not.toBe(before);
    expect(stampParts(fileStamp(path) as string).size).toBe(6n);
    expect(fileStamp(ws.path('src'))).toBeUndefined();
    expect(fileStamp(ws.path('missing.txt'))).toBeUndefined();
    symlinkSync(path, ws.path('link.txt'));
    expect(fileStamp(ws.path('link.txt'))).toBeUndefined();
    expect(fileStamp(ws.path('link.txt'), { follow: true })).toBe(fileStamp(path));
  });
});

describe('stampSettled', () => {
  it('trusts a stamp only once its last change is older than the settle time before the given moment', () => {
    const stamp = fileStamp(ws.path('src/a.txt')) as string;
    const changedAt = Number(stampParts(stamp).ctimeNs / 1_000_000n);
    expect(stampSettled(stamp, changedAt + 1)).toBe(false);
    expect(stampSettled(stamp, changedAt + FILE_STAMP_SETTLE_MS + 2)).toBe(true);
  });

  it('never trusts times without a sub-second part (a filesystem whose clock tick is a second)', () => {
    expect(stampSettled('1:2:3:5000000000:5000000000', 1e12)).toBe(false);
  });
});

describe('rereadAllowedFile', () => {
  it('reads the file at its real path, with the stamp it had', () => {
    const path = ws.path('src/a.txt');
    expect(rereadAllowedFile(path, 100)).toEqual({ text: 'alpha\n', stamp: fileStamp(path) });
  });

  it('gives nothing for a file over the limit, a link in its place, or a directory on the way swapped for a link', () => {
    const path = ws.path('src/a.txt');
    expect(rereadAllowedFile(path, 3)).toBeUndefined();
    writeFileSync(join(ws.outside, 'a.txt'), 'secret\n');
    // The file itself swapped for a link to a file outside.
    unlinkSync(path);
    symlinkSync(join(ws.outside, 'a.txt'), path);
    expect(rereadAllowedFile(path, 100)).toBeUndefined();
    // Its directory swapped for a link to a directory outside holding a file of the same name.
    renameSync(ws.path('src'), ws.path('src-old'));
    symlinkSync(ws.outside, ws.path('src'));
    expect(rereadAllowedFile(path, 100)).toBeUndefined();
  });
});
