import { writeFileSync } from 'node:fs';
import { countFileIo, makeWorkspace, stopCountingFileIo, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unchangedSince } from './internal/load-text.js';

describe('unchangedSince: the check just before an edit is written', () => {
  let tmp: TempWorkspace;
  let ws: Workspace;
  beforeEach(async () => {
    tmp = makeWorkspace();
    ws = await Workspace.open(tmp.root);
  });
  afterEach(() => {
    stopCountingFileIo();
    tmp.cleanup();
  });

  async function opened(path: string) {
    const file = await ws.openRead(path);
    if (!file.success) throw new Error(file.error);
    await file.handle.close();
    return file;
  }

  it('holds for the same bytes, with one read of the file', async () => {
    tmp.write('a.txt', 'alpha\nbeta\n');
    const file = await opened('a.txt');
    const io = await countFileIo(tmp.path('a.txt'));
    expect(await unchangedSince(ws, file, Buffer.from('alpha\nbeta\n'), 1 << 20)).toBe(true);
    expect(io()).toEqual({ opens: 1, reads: 1 });
  });

  it('fails for a same-size change its size and mtime check cannot see', async () => {
    const path = tmp.write('b.txt', 'alpha\nbeta\n');
    writeFileSync(path, 'alpha\nBETA\n');
    // The record carries the current size and mtime, as after a change that kept both; only the bytes differ.
    const file = await opened('b.txt');
    expect(await unchangedSince(ws, file, Buffer.from('alpha\nbeta\n'), 1 << 20)).toBe(false);
    expect(await unchangedSince(ws, file, Buffer.from('alpha\nBETA\n'), 1 << 20)).toBe(true);
  });

  it('fails when the file is longer than what was read, even at the recorded size and mtime', async () => {
    tmp.write('c.txt', 'alpha\n');
    const file = await opened('c.txt');
    // What was read is shorter than the file: the extra byte must be noticed, not cut off.
    expect(await unchangedSince(ws, file, Buffer.from('alpha'), 1 << 20)).toBe(false);
    expect(await unchangedSince(ws, file, Buffer.from('alpha\n'), 1 << 20)).toBe(true);
  });
});
