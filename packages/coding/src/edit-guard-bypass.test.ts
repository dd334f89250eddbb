import { linkSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import type { CodingToolkitOptions } from './toolkit.js';

let ws: TempWorkspace;
let outsideBefore: string;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'real/f.txt': 'eff\n', 'real/g.txt': 'gee\n' });
  symlinkSync(ws.path('real'), ws.path('link'));
  outsideBefore = snapshotTree(ws.outside);
});
afterEach(() => {
  // Guarantee 2 of SECURITY.md: whatever a test did, nothing outside the workspace changed.
  expect(snapshotTree(ws.outside)).toBe(outsideBefore);
  ws.cleanup();
});

const branchFor = (options: CodingToolkitOptions = {}) =>
  toolkitBranch(ws.root, { tools: ['reader', 'editor', 'bash'], notify: false, ...options });
const edit = (file: string, from: string, to: string) => ({
  action: 'edit',
  file_path: file,
  old_string: from,
  new_string: to,
});
const read = (path: string) => ({ action: 'read', path });
const text = (relative: string) => readFileSync(ws.path(relative), 'utf8');

describe('the read-before-edit guard cannot be bypassed by spelling the path differently', () => {
  it('refuses an unread file under every spelling, and changes nothing', async () => {
    const branch = branchFor();
    await call(branch, 'reader', read('a.txt'));
    for (const spelling of ['b.txt', './b.txt', 'real/../b.txt', 'link/../b.txt', './/b.txt', ws.path('b.txt')]) {
      expect(await call(branch, 'editor', edit(spelling, 'beta', 'x')), spelling).toMatchObject({
        success: false,
        error_code: 'not_read',
      });
      expect(
        await call(branch, 'editor', { action: 'write', file_path: spelling, content: 'x' }),
        spelling,
      ).toMatchObject({ error_code: 'not_read' });
    }
    expect(text('b.txt')).toBe('beta\n');
  });

  it('treats every spelling of a file that was read as that same file', async () => {
    const branch = branchFor();
    await call(branch, 'reader', read('./a.txt'));
    expect((await call(branch, 'editor', edit('real/../a.txt', 'alpha', 'one'))).success).toBe(true);
    expect((await call(branch, 'editor', edit(ws.path('a.txt'), 'one', 'two'))).success).toBe(true);
    expect((await call(branch, 'editor', edit('a.txt', 'two', 'three'))).success).toBe(true);
    expect(text('a.txt')).toBe('three\n');
  });

  it('resolves a symlinked intermediate directory to the real file, in both directions', async () => {
    const branch = branchFor();
    expect(await call(branch, 'editor', edit('link/f.txt', 'eff', 'x'))).toMatchObject({ error_code: 'not_read' });
    await call(branch, 'reader', read('link/f.txt'));
    expect((await call(branch, 'editor', edit('real/f.txt', 'eff', 'F'))).success).toBe(true);
    await call(branch, 'reader', read('real/g.txt'));
    expect((await call(branch, 'editor', edit('link/g.txt', 'gee', 'G'))).success).toBe(true);
    expect(text('real/f.txt')).toBe('F\n');
    expect(text('real/g.txt')).toBe('G\n');
  });

  it('keys hard links by path: reading one name never authorises an edit through another', async () => {
    linkSync(ws.path('a.txt'), ws.path('hard.txt'));
    const branch = branchFor();
    await call(branch, 'reader', read('a.txt'));
    expect(await call(branch, 'editor', edit('hard.txt', 'alpha', 'x'))).toMatchObject({ error_code: 'not_read' });
    await call(branch, 'reader', read('hard.txt'));
    expect((await call(branch, 'editor', edit('hard.txt', 'alpha', 'via-link'))).success).toBe(true);
    // the editor replaces the name (temp file + rename), so the other name keeps its bytes
    expect(text('hard.txt')).toBe('via-link\n');
    expect(text('a.txt')).toBe('alpha\n');
  });

  it('never writes through a hard link to a file outside the workspace', async () => {
    linkSync(join(ws.outside, 'secret.txt'), ws.path('out-hard.txt'));
    const branch = branchFor();
    expect(await call(branch, 'editor', edit('out-hard.txt', 'OUTSIDE', 'x'))).toMatchObject({ success: false });
    await call(branch, 'reader', read('out-hard.txt'));
    await call(branch, 'editor', edit('out-hard.txt', 'OUTSIDE', 'changed'));
    await call(branch, 'editor', { action: 'write', file_path: 'out-hard.txt', content: 'overwritten' });
    expect(readFileSync(join(ws.outside, 'secret.txt'), 'utf8')).toBe('OUTSIDE-SECRET-CANARY\n');
  });

  it('refuses a final-component symlink whatever the state says, and edits nothing outside', async () => {
    symlinkSync(join(ws.outside, 'secret.txt'), ws.path('out-link.txt'));
    symlinkSync(ws.path('a.txt'), ws.path('in-link.txt'));
    const branch = branchFor();
    await call(branch, 'reader', read('a.txt'));
    for (const path of ['out-link.txt', 'in-link.txt']) {
      const out = await call(branch, 'editor', edit(path, 'alpha', 'x'));
      expect(out.success, path).toBe(false);
      expect(JSON.stringify(out)).not.toContain(ws.outside);
    }
    expect(text('a.txt')).toBe('alpha\n');
  });
});

describe('what the guard compares: content, not identity', () => {
  it('allows an edit after the file was replaced by a new file with the same bytes', async () => {
    const branch = branchFor();
    await call(branch, 'reader', read('a.txt'));
    rmSync(ws.path('a.txt'));
    writeFileSync(ws.path('tmp'), 'alpha\n');
    renameSync(ws.path('tmp'), ws.path('a.txt'));
    expect((await call(branch, 'editor', edit('a.txt', 'alpha', 'ok'))).success).toBe(true);
  });

  it('allows an edit after a change that was changed back (the model saw exactly the current bytes)', async () => {
    const branch = branchFor();
    await call(branch, 'reader', read('a.txt'));
    writeFileSync(ws.path('a.txt'), 'something else\n');
    expect(await call(branch, 'editor', edit('a.txt', 'alpha', 'x'))).toMatchObject({ error_code: 'stale_read' });
    writeFileSync(ws.path('a.txt'), 'alpha\n');
    expect((await call(branch, 'editor', edit('a.txt', 'alpha', 'ok'))).success).toBe(true);
  });

  it('catches a change made through the bash tool after a read', async () => {
    const branch = branchFor();
    await call(branch, 'reader', read('a.txt'));
    expect((await call(branch, 'bash', { command: 'cp b.txt a.txt' })).return_code).toBe(0);
    expect(await call(branch, 'editor', edit('a.txt', 'beta', 'x'))).toMatchObject({ error_code: 'stale_read' });
  });

  it('a deleted file that was read can be written again as a new file', async () => {
    const branch = branchFor();
    await call(branch, 'reader', read('a.txt'));
    rmSync(ws.path('a.txt'));
    expect((await call(branch, 'editor', { action: 'write', file_path: 'a.txt', content: 'new\n' })).success).toBe(
      true,
    );
  });
});

describe('tool options cannot switch the guard off', () => {
  it('judges paths with the editor’s own protected-name policy', async () => {
    ws.write('.env', 'KEY=1\n');
    // The caller lets the editor touch .env: the guard must still demand a read first.
    const protectedNames = { names: [], patterns: [], allow: [] };
    const branch = branchFor({ toolOptions: { editor: { protectedNames }, reader: { protectedNames } } });
    expect(await call(branch, 'editor', { action: 'write', file_path: '.env', content: 'KEY=2\n' })).toMatchObject({
      error_code: 'not_read',
    });
    expect(text('.env')).toBe('KEY=1\n');
    await call(branch, 'reader', read('.env'));
    expect((await call(branch, 'editor', { action: 'write', file_path: '.env', content: 'KEY=2\n' })).success).toBe(
      true,
    );
  });

  it('ignores a workspace object passed in tool options (the root is always the toolkit’s)', async () => {
    const elsewhere = await Workspace.open(ws.outside);
    const branch = branchFor({ toolOptions: { editor: { workspace: elsewhere }, reader: { workspace: elsewhere } } });
    expect(await call(branch, 'editor', { action: 'write', file_path: 'secret.txt', content: 'x' })).toMatchObject({
      success: true,
    });
    expect(text('secret.txt')).toBe('x');
    expect(await call(branch, 'editor', edit('a.txt', 'alpha', 'x'))).toMatchObject({ error_code: 'not_read' });
  });
});
