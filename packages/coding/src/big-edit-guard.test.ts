import { readFileSync } from 'node:fs';
import { makeWorkspace, sha256File, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';

// The editor leaves `sha256` out of responses for big files unless asked; the toolkit asks, because its
// read-before-edit guard records that digest as what the branch last saw. These files are big enough to take the
// editor's streamed path (over 8 MiB) with its default limits.
const LINE = 'a line of ordinary text, long enough to fill a big file quickly\n';
const HALF = LINE.repeat(Math.ceil((9 * 1024 * 1024) / LINE.length / 2));

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'big.txt': `${HALF}FIRST marker\n${HALF}` });
});
afterEach(() => ws.cleanup());

const edit = (from: string, to: string) => ({ action: 'edit', file_path: 'big.txt', old_string: from, new_string: to });

describe('the read-before-edit guard after edits of a big file', () => {
  it('records each streamed edit, so the next edit of the same file is allowed', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['reader', 'editor'], notify: false });
    expect(await call(branch, 'editor', edit('FIRST', 'SECOND'))).toMatchObject({ error_code: 'not_read' });
    await call(branch, 'reader', { action: 'read', path: 'big.txt' });
    const first = await call(branch, 'editor', edit('FIRST', 'SECOND'));
    expect(first).toMatchObject({ success: true, replacements: 1 });
    expect(first.sha256).toBe(sha256File(ws.path('big.txt')));
    const second = await call(branch, 'editor', edit('SECOND', 'THIRD'));
    expect(second).toMatchObject({ success: true, replacements: 1 });
    expect(second.sha256).toBe(sha256File(ws.path('big.txt')));
    expect(readFileSync(ws.path('big.txt'), 'utf8')).toBe(`${HALF}THIRD marker\n${HALF}`);
  });

  it('still refuses an edit after the big file changed behind the branch', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['reader', 'editor'], notify: false });
    await call(branch, 'reader', { action: 'read', path: 'big.txt' });
    expect(await call(branch, 'editor', edit('FIRST', 'SECOND'))).toMatchObject({ success: true });
    ws.write('big.txt', `${HALF}OTHER marker\n${HALF}`);
    expect((await call(branch, 'editor', edit('OTHER', 'THIRD'))).success).toBe(false);
    expect(readFileSync(ws.path('big.txt'), 'utf8')).toBe(`${HALF}OTHER marker\n${HALF}`);
  });
});
