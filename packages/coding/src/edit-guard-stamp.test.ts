import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';

// A file over the reader's tailScanMaxBytes (2 MiB): a read of its first window is not hashed, so the evidence of
// the whole file is the stamp the toolkit takes around the read.
const LINE = 'an ordinary line of text, numbered only by its place in the file\n';
const HALF = LINE.repeat(Math.ceil((3 * 1024 * 1024) / LINE.length / 2));
const BODY = `${HALF}FAR marker one\nFAR marker two\n${HALF}`;

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'big.txt': BODY });
});
afterEach(() => ws.cleanup());

const branchFor = () => toolkitBranch(ws.root, { tools: ['reader', 'editor'], notify: false });
const edit = (from: string, to: string) => ({ action: 'edit', file_path: 'big.txt', old_string: from, new_string: to });

describe('the read-before-edit guard with a big file the reader does not hash', () => {
  it('reads the first window without hashing the file, and still allows an edit of the unchanged file', async () => {
    const branch = branchFor();
    const read = await call(branch, 'reader', { action: 'read', path: 'big.txt', offset: 0, limit: 100 });
    expect(read).toMatchObject({ success: true, start_line: 1, end_line: 100 });
    expect(read.sha256).toBeUndefined();
    // The marker was never shown, but the file is as it was when read: the stamp vouches for the whole file.
    expect(await call(branch, 'editor', edit('FAR marker one', 'FAR marker 111'))).toMatchObject({ success: true });
    expect(readFileSync(ws.path('big.txt'), 'utf8')).toContain('FAR marker 111');
  });

  it('catches a same-size change behind its back with the mtime set back', async () => {
    const branch = branchFor();
    const stamp = new Date('2024-01-01T00:00:00Z');
    utimesSync(ws.path('big.txt'), stamp, stamp);
    await call(branch, 'reader', { action: 'read', path: 'big.txt', offset: 0, limit: 100 });
    const before = statSync(ws.path('big.txt'));
    const changed = BODY.replace('FAR marker two', 'FAR marker 222');
    writeFileSync(ws.path('big.txt'), changed);
    utimesSync(ws.path('big.txt'), stamp, stamp);
    const after = statSync(ws.path('big.txt'));
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    // Neither line was shown, and the file is no longer the one read: both edits are refused.
    for (const target of ['FAR marker one', 'FAR marker 222']) {
      const out = await call(branch, 'editor', edit(target, 'FAR marker 333'));
      expect(out).toMatchObject({ success: false, error_code: 'stale_read' });
    }
    expect(readFileSync(ws.path('big.txt'), 'utf8')).toBe(changed);
  });

  it('takes a stamp of a file read right after it was written, and forgets it with the read', async () => {
    writeFileSync(ws.path('big.txt'), BODY.replace('FAR marker one', 'FAR marker new'));
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'big.txt', offset: 0, limit: 10 });
    expect(await call(branch, 'editor', edit('FAR marker new', 'FAR marker 444'))).toMatchObject({ success: true });
    // The own write recorded its digest; dropping both calls from the context drops every kind of evidence.
    branch.evict(branch.activeMessages().map((message) => message.id));
    const out = await call(branch, 'editor', edit('FAR marker 444', 'FAR marker 555'));
    expect(out).toMatchObject({ success: false });
  });
});
