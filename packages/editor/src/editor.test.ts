import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describeToolConformance, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditorTool, handleEditor } from './index.js';
import type { EditorInput } from './schema.js';

describeToolConformance('editor', {
  makeTool: (ws) => createEditorTool({ workspaceRoot: ws.root }),
  setup: (ws) => ws.write('a.txt', 'alpha\nbeta\n'),
  validRequest: () => ({ action: 'edit', file_path: 'a.txt', old_string: 'beta', new_string: 'gamma' }),
  invalidRequests: [
    {},
    { action: 'delete', file_path: 'a.txt' },
    { action: 'write', file_path: 7, content: 'x' },
    { action: 'write', file_path: '', content: 'x' },
    { action: 'edit', file_path: 'a.txt', old_string: 'a', new_string: 'b', extra: true },
    { action: 'edit', file_path: 'a.txt', old_string: 'a', new_string: 'b', replace_all: 'yes' },
  ],
  escapeRequests: (ws) => [
    { action: 'write', file_path: '../ws-evil/secret.txt', content: 'pwned' },
    { action: 'write', file_path: `${ws.outside}/new.txt`, content: 'pwned' },
    { action: 'edit', file_path: '../ws-evil/secret.txt', old_string: 'OUTSIDE', new_string: 'x' },
    { action: 'edit', file_path: `${ws.outside}/secret.txt`, old_string: 'OUTSIDE', new_string: 'x' },
  ],
  touchCases: () => [
    { request: { action: 'write', file_path: 'a.txt', content: 'x', dry_run: true }, touches: { write: ['a.txt'] } },
    {
      request: { action: 'multi_edit', file_path: 'a.txt', edits: [{ old_string: 'a', new_string: 'b' }] },
      touches: { write: ['a.txt'] },
    },
    { request: { action: 'mkdir', file_path: 'd' }, touches: { create: ['d'] } },
    {
      request: { action: 'move', file_path: 'notes.txt', destination: 'secrets/notes.txt' },
      touches: { move: [{ from: 'notes.txt', to: 'secrets/notes.txt' }] },
    },
    {
      request: {
        action: 'patch',
        patch: [
          '*** Begin Patch',
          '*** Add File: secrets/key.txt',
          '+k',
          '*** Update File: a.txt',
          '*** Move to: b.txt',
          '@@',
          '-alpha',
          '+ALPHA',
          '*** Update File: c.txt',
          '@@',
          '-x',
          '+y',
          '*** Delete File: d.txt',
          '*** End Patch',
        ].join('\n'),
      },
      touches: {
        write: ['c.txt'],
        create: ['secrets/key.txt'],
        delete: ['d.txt'],
        move: [{ from: 'a.txt', to: 'b.txt' }],
      },
    },
    { request: { action: 'patch', patch: 'not a patch' }, touches: {} },
  ],
});

const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');

describe('editor write', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.cleanup());
  const call = (req: unknown) => handleEditor(req as EditorInput, { workspaceRoot: ws.root });

  it('creates a new file with parents and reports created, bytes, lines and the sha of the disk bytes', async () => {
    const out = await call({ action: 'write', file_path: 'deep/er/new.ts', content: 'one\ntwo\n' });
    expect(out).toMatchObject({
      success: true,
      action: 'write',
      created: true,
      bytes: 8,
      lines: 2,
      relative: 'deep/er/new.ts',
    });
    const disk = readFileSync(ws.path('deep/er/new.ts'));
    expect(disk.toString()).toBe('one\ntwo\n');
    expect((out as { sha256: string }).sha256).toBe(sha(disk));
    expect((out as { path: string }).path).toBe(ws.path('deep/er/new.ts'));
  });

  it('overwrites an existing file atomically and says so', async () => {
    ws.write('f.txt', 'old');
    const out = await call({ action: 'write', file_path: 'f.txt', content: 'new' });
    expect(out).toMatchObject({ success: true, created: false, bytes: 3 });
    expect(readFileSync(ws.path('f.txt'), 'utf8')).toBe('new');
  });

  it('requires content and accepts an empty string', async () => {
    expect(await call({ action: 'write', file_path: 'f.txt' })).toMatchObject({ error_code: 'invalid_request' });
    expect(await call({ action: 'write', file_path: 'f.txt', content: '' })).toMatchObject({ success: true, lines: 0 });
  });

  it('refuses content with an unpaired surrogate instead of writing U+FFFD', async () => {
    const out = await call({ action: 'write', file_path: 'f.txt', content: 'a\uD800b' });
    expect(out).toMatchObject({ error_code: 'invalid_request' });
  });

  it('refuses a whitespace-only path as invalid_path and creates nothing', async () => {
    for (const file_path of ['   ', '\t', ' \n ']) {
      expect(await call({ action: 'write', file_path, content: 'x' }), JSON.stringify(file_path)).toMatchObject({
        success: false,
        error_code: 'invalid_path',
      });
      expect(await call({ action: 'edit', file_path, old_string: 'a', new_string: 'b' })).toMatchObject({
        error_code: 'invalid_path',
      });
    }
    expect(readdirSync(ws.root)).toEqual([]);
  });

  it('refuses writing onto a directory with the workspace code', async () => {
    ws.write('dir/x', '');
    expect(await call({ action: 'write', file_path: 'dir', content: 'x' })).toMatchObject({ error_code: 'not_a_file' });
  });

  it('honours the write size limit', async () => {
    const out = await handleEditor(
      { action: 'write', file_path: 'big.txt', content: 'x'.repeat(100) },
      { workspaceRoot: ws.root, limits: { maxWriteBytes: 10 } },
    );
    expect(out).toMatchObject({ error_code: 'too_large' });
  });

  it('keeps the mode of an executable file', async () => {
    ws.write('run.sh', '#!/bin/sh\necho hi\n');
    const { chmodSync } = await import('node:fs');
    chmodSync(ws.path('run.sh'), 0o755);
    await call({ action: 'write', file_path: 'run.sh', content: '#!/bin/sh\necho bye\n' });
    expect(statSync(ws.path('run.sh')).mode & 0o777).toBe(0o755);
    await call({ action: 'edit', file_path: 'run.sh', old_string: 'bye', new_string: 'ciao' });
    expect(statSync(ws.path('run.sh')).mode & 0o777).toBe(0o755);
  });

  it('returns an aborted failure and writes nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = await handleEditor(
      { action: 'write', file_path: 'f.txt', content: 'x' },
      { workspaceRoot: ws.root, signal: controller.signal },
    );
    expect(out).toMatchObject({ error_code: 'aborted' });
  });

  it('reports an unusable root as a failure value', async () => {
    const out = await handleEditor(
      { action: 'write', file_path: 'f', content: '' },
      { workspaceRoot: `${ws.root}/nope` },
    );
    expect(out).toMatchObject({ success: false, error_code: 'workspace_unavailable' });
  });
});

describe('editor edit', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.cleanup());
  const call = (req: unknown) => handleEditor(req as EditorInput, { workspaceRoot: ws.root });

  it('replaces a unique exact match and returns a unified diff, sha and first line', async () => {
    ws.write('a.py', 'def f():\n    return 1\n\n\ndef g():\n    return 2\n');
    const out = await call({ action: 'edit', file_path: 'a.py', old_string: 'return 2', new_string: 'return 3' });
    expect(out).toMatchObject({ success: true, replacements: 1, first_line: 6, diff_truncated: false });
    const disk = readFileSync(ws.path('a.py'));
    expect(disk.toString()).toBe('def f():\n    return 1\n\n\ndef g():\n    return 3\n');
    expect((out as { sha256: string }).sha256).toBe(sha(disk));
    expect((out as { diff: string }).diff).toBe(
      ['@@ -3,4 +3,4 @@', ' ', ' ', ' def g():', '-    return 2', '+    return 3'].join('\n'),
    );
  });

  it('validates old_string and new_string', async () => {
    ws.write('a.txt', 'x\n');
    expect(await call({ action: 'edit', file_path: 'a.txt', new_string: 'y' })).toMatchObject({
      error_code: 'invalid_request',
    });
    expect(await call({ action: 'edit', file_path: 'a.txt', old_string: '', new_string: 'y' })).toMatchObject({
      error_code: 'invalid_request',
    });
    expect(await call({ action: 'edit', file_path: 'a.txt', old_string: 'x' })).toMatchObject({
      error_code: 'invalid_request',
    });
    expect(await call({ action: 'edit', file_path: 'a.txt', old_string: 'x', new_string: 'x' })).toMatchObject({
      error_code: 'no_change',
    });
  });

  it('deletes text when new_string is empty', async () => {
    ws.write('a.txt', 'keep\ndrop\nkeep\n');
    const out = await call({ action: 'edit', file_path: 'a.txt', old_string: 'drop\n', new_string: '' });
    expect(out).toMatchObject({ success: true });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('keep\nkeep\n');
    expect((out as { diff: string }).diff).toBe('@@ -1,3 +1,2 @@\n keep\n-drop\n keep');
  });

  it('fails on a missing file with the workspace code and a hint to write', async () => {
    const out = await call({ action: 'edit', file_path: 'nope.txt', old_string: 'a', new_string: 'b' });
    expect(out).toMatchObject({ success: false, error_code: 'not_found' });
    expect((out as { error: string }).error).toContain("'write'");
  });

  it('refuses multiple matches with the count and line numbers unless replace_all', async () => {
    ws.write('a.txt', 'x = 1\ny = 2\nx = 1\nz\nx = 1\n');
    const out = await call({ action: 'edit', file_path: 'a.txt', old_string: 'x = 1', new_string: 'x = 9' });
    expect(out).toMatchObject({ error_code: 'multiple_matches', match_count: 3, match_lines: [1, 3, 5] });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('x = 1\ny = 2\nx = 1\nz\nx = 1\n');
    const all = await call({
      action: 'edit',
      file_path: 'a.txt',
      old_string: 'x = 1',
      new_string: 'x = 9',
      replace_all: true,
    });
    expect(all).toMatchObject({ success: true, replacements: 3, first_line: 1 });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('x = 9\ny = 2\nx = 9\nz\nx = 9\n');
    expect((all as { diff: string }).diff).toBe(
      '@@ -1,5 +1,5 @@\n-x = 1\n+x = 9\n y = 2\n-x = 1\n+x = 9\n z\n-x = 1\n+x = 9',
    );
  });

  it('handles two matches on one line with replace_all in one diff region', async () => {
    ws.write('a.txt', 'a a\nb\n');
    const out = await call({
      action: 'edit',
      file_path: 'a.txt',
      old_string: 'a',
      new_string: 'cc',
      replace_all: true,
    });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('cc cc\nb\n');
    expect((out as { diff: string }).diff).toBe('@@ -1,2 +1,2 @@\n-a a\n+cc cc\n b');
  });

  it('marks a missing final newline in the diff and keeps it missing', async () => {
    ws.write('a.txt', 'one\ntwo');
    const out = await call({ action: 'edit', file_path: 'a.txt', old_string: 'two', new_string: 'three' });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('one\nthree');
    expect((out as { diff: string }).diff).toBe(
      '@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+three\n\\ No newline at end of file',
    );
  });

  it('caps the diff and says so', async () => {
    ws.write('a.txt', `${'line\n'.repeat(500)}`);
    const out = await call({
      action: 'edit',
      file_path: 'a.txt',
      old_string: 'line',
      new_string: 'LINE',
      replace_all: true,
    });
    expect(out).toMatchObject({ success: true, replacements: 500, diff_truncated: true });
    const diff = (out as { diff: string }).diff;
    expect(diff.split('\n').length).toBeLessThanOrEqual(81);
    expect(diff).toMatch(/diff cut after 80 lines/);
  });

  it('refuses files over the size limit with too_large', async () => {
    ws.write('a.txt', 'x'.repeat(100));
    const out = await handleEditor(
      { action: 'edit', file_path: 'a.txt', old_string: 'x', new_string: 'y', replace_all: true },
      { workspaceRoot: ws.root, limits: { maxFileBytes: 50 } },
    );
    expect(out).toMatchObject({ error_code: 'too_large' });
  });
});
