import { readFileSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EditorInput, handleEditor } from './index.js';

type Out = Record<string, unknown> & { success: boolean; error_code?: string; error?: string };

describe('multi_edit', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.cleanup());
  const call = async (req: Record<string, unknown>) =>
    (await handleEditor({ action: 'multi_edit', ...req } as EditorInput, { workspaceRoot: ws.root })) as Out;

  it('applies edits in order, each to the result of the ones before, in one write', async () => {
    ws.write('a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const out = await call({
      file_path: 'a.ts',
      edits: [
        { old_string: 'const a = 1;', new_string: 'const a = 10;' },
        { old_string: 'const a = 10;\nconst b = 2;', new_string: 'const a = 10;\nconst b = 20;\nconst bb = 21;' },
        { old_string: 'const', new_string: 'let', replace_all: true },
      ],
    });
    expect(out).toMatchObject({ success: true, action: 'multi_edit', replacements: 6, added: 4, removed: 3 });
    expect(readFileSync(ws.path('a.ts'), 'utf8')).toBe('let a = 10;\nlet b = 20;\nlet bb = 21;\nlet c = 3;\n');
    expect((out.edits as Array<Record<string, unknown>>)[0]).toMatchObject({
      strategy: 'exact',
      start_line: 1,
      end_line: 1,
      replacements: 1,
    });
    expect((out.edits as Array<Record<string, unknown>>)[1]).toMatchObject({ start_line: 1, end_line: 3 });
    expect(out.diff).toContain('--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,4 @@');
    expect(out.diff).toContain('+let bb = 21;');
  });

  it('writes nothing when a later edit fails, and names it with its miss report', async () => {
    const before = 'alpha\nbeta\ngamma\n';
    ws.write('b.txt', before);
    const out = await call({
      file_path: 'b.txt',
      edits: [
        { old_string: 'alpha', new_string: 'ALPHA' },
        { old_string: 'delta', new_string: 'DELTA' },
      ],
    });
    expect(out).toMatchObject({ success: false, error_code: 'not_found_in_file', edit_index: 1 });
    expect(out.error).toMatch(/^Edit 1 of 2 failed/);
    expect(out).toHaveProperty('candidates');
    expect(readFileSync(ws.path('b.txt'), 'utf8')).toBe(before);
  });

  it('refuses an edit whose text only existed before an earlier edit changed it', async () => {
    ws.write('c.txt', 'one two\n');
    const out = await call({
      file_path: 'c.txt',
      edits: [
        { old_string: 'one', new_string: 'uno' },
        { old_string: 'one two', new_string: 'x' },
      ],
    });
    expect(out).toMatchObject({ success: false, edit_index: 1 });
    expect(readFileSync(ws.path('c.txt'), 'utf8')).toBe('one two\n');
  });

  it('reports multiple matches for the failing edit', async () => {
    ws.write('d.txt', 'x\nx\n');
    const out = await call({ file_path: 'd.txt', edits: [{ old_string: 'x', new_string: 'y' }] });
    expect(out).toMatchObject({ success: false, error_code: 'multiple_matches', edit_index: 0, match_lines: [1, 2] });
  });

  it('validates every edit before reading the file', async () => {
    ws.write('e.txt', 'a\n');
    expect(
      await call({
        file_path: 'e.txt',
        edits: [
          { old_string: 'a', new_string: 'b' },
          { old_string: '', new_string: 'c' },
        ],
      }),
    ).toMatchObject({ error_code: 'invalid_request', edit_index: 1 });
    expect(await call({ file_path: 'e.txt', edits: [{ old_string: 'a', new_string: 'a' }] })).toMatchObject({
      error_code: 'invalid_request',
      edit_index: 0,
    });
    expect(await call({ file_path: 'e.txt', edits: [] })).toMatchObject({ error_code: 'invalid_request' });
    expect(await call({ file_path: 'e.txt' })).toMatchObject({ error_code: 'invalid_request' });
    const many = Array.from({ length: 101 }, (_, i) => ({ old_string: `k${i}`, new_string: `v${i}` }));
    expect(await call({ file_path: 'e.txt', edits: many })).toMatchObject({ error_code: 'too_many_edits' });
    expect(readFileSync(ws.path('e.txt'), 'utf8')).toBe('a\n');
  });

  it('keeps BOM, CRLF and a missing final newline byte for byte', async () => {
    ws.write('w.txt', Buffer.from('\uFEFFone\r\ntwo\r\nthree', 'utf8'));
    const out = await call({
      file_path: 'w.txt',
      edits: [
        { old_string: 'one\ntwo', new_string: 'ONE\nTWO\nTWO-B' },
        { old_string: 'three', new_string: 'THREE' },
      ],
    });
    expect(out).toMatchObject({ success: true, encoding: 'utf-8-bom', line_ending: 'crlf' });
    expect(readFileSync(ws.path('w.txt'))).toEqual(Buffer.from('\uFEFFONE\r\nTWO\r\nTWO-B\r\nTHREE', 'utf8'));
  });

  it('keeps UTF-16 files in UTF-16', async () => {
    const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    ws.write('u.txt', utf16('x = "é"\ny = 1\n'));
    const out = await call({
      file_path: 'u.txt',
      edits: [
        { old_string: 'é', new_string: 'è' },
        { old_string: 'y = 1', new_string: 'y = 2' },
      ],
    });
    expect(out).toMatchObject({ success: true, encoding: 'utf-16le' });
    expect(readFileSync(ws.path('u.txt'))).toEqual(utf16('x = "è"\ny = 2\n'));
  });

  it('refuses files outside the workspace, protected names and .git like edit does', async () => {
    ws.write('.env', 'SECRET=1\n');
    ws.write('.git/config', '[core]\n');
    const edits = [{ old_string: 'a', new_string: 'b' }];
    expect(await call({ file_path: '../ws-evil/secret.txt', edits })).toMatchObject({
      error_code: 'outside_workspace',
    });
    expect(await call({ file_path: '.env', edits })).toMatchObject({ error_code: 'protected_path' });
    expect(await call({ file_path: '.git/config', edits: [{ old_string: 'core', new_string: 'x' }] })).toMatchObject({
      error_code: 'protected_path',
    });
    expect(readFileSync(ws.path('.git/config'), 'utf8')).toBe('[core]\n');
  });
});
