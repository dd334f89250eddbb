import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { countFileIo, makeWorkspace, stopCountingFileIo, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\nbeta\ngamma\n' });
});
afterEach(() => {
  stopCountingFileIo();
  ws.cleanup();
});

const edit = (from: string, to: string) => ({ action: 'edit', file_path: 'a.txt', old_string: from, new_string: to });

describe('the guard and the editor share one read of the file, and the write is recorded from its own bytes', () => {
  it('opens the file twice per guarded edit (the guard, the check before writing), not four times', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['reader', 'editor'], notify: false });
    expect((await call(branch, 'reader', { action: 'read', path: 'a.txt' })).success).toBe(true);
    let io = await countFileIo(ws.path('a.txt'));
    expect((await call(branch, 'editor', edit('beta', 'BETA'))).success).toBe(true);
    // The guard's read, then the check just before writing: two opens, one read each.
    expect(io()).toEqual({ opens: 2, reads: 2 });
    // What the edit wrote is evidence: the next edit needs no read, and again opens the file twice.
    stopCountingFileIo();
    io = await countFileIo(ws.path('a.txt'));
    expect((await call(branch, 'editor', edit('BETA', 'beta2'))).success).toBe(true);
    expect(io()).toEqual({ opens: 2, reads: 2 });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('alpha\nbeta2\ngamma\n');
  });

  it('still refuses an edit after a same-size, same-mtime change made behind its back', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['reader', 'editor'], notify: false });
    await call(branch, 'reader', { action: 'read', path: 'a.txt' });
    expect((await call(branch, 'editor', edit('beta', 'BETA'))).success).toBe(true);
    const before = statSync(ws.path('a.txt'));
    writeFileSync(ws.path('a.txt'), 'alpha\nBETA\nGAMMA\n');
    utimesSync(ws.path('a.txt'), before.atime, before.mtime);
    expect(await call(branch, 'editor', edit('GAMMA', 'x'))).toMatchObject({
      success: false,
      error_code: 'stale_read',
    });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('alpha\nBETA\nGAMMA\n');
  });
});
