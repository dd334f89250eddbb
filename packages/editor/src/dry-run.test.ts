import { existsSync, readFileSync } from 'node:fs';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';
import type { EditorInput } from './schema.js';

type Out = Record<string, unknown> & { success: boolean; error_code?: string };

describe('dry_run', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'src/a.ts': 'const a = 1;\nconst b = 2;\n', 'keep.txt': 'keep\n' });
  });
  afterEach(() => ws.cleanup());
  const call = async (req: Record<string, unknown>) =>
    (await handleEditor(req as EditorInput, { workspaceRoot: ws.root })) as Out;

  it('edit: the same response as the real edit, diff included, nothing written and no sha256', async () => {
    const before = snapshotTree(ws.root);
    const req = { action: 'edit', file_path: 'src/a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' };
    const dry = await call({ ...req, dry_run: true });
    expect(snapshotTree(ws.root)).toBe(before);
    expect(dry).toMatchObject({ success: true, dry_run: true, strategy: 'exact', first_line: 2 });
    expect(dry).not.toHaveProperty('sha256');
    const real = await call(req);
    const { sha256: _s, message: _m, ...rest } = real;
    const { dry_run: _d, message: _n, ...dryRest } = dry;
    expect(dryRest).toEqual(rest);
    expect(readFileSync(ws.path('src/a.ts'), 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('edit: every check still runs (a miss is a miss, a protected path is refused)', async () => {
    ws.write('.env', 'X=1\n');
    expect(
      await call({ action: 'edit', file_path: 'src/a.ts', old_string: 'nope', new_string: 'x', dry_run: true }),
    ).toMatchObject({ error_code: 'not_found_in_file' });
    expect(
      await call({ action: 'edit', file_path: '.env', old_string: 'X', new_string: 'Y', dry_run: true }),
    ).toMatchObject({ error_code: 'protected_path' });
  });

  it('multi_edit: returns the combined diff and writes nothing', async () => {
    const before = snapshotTree(ws.root);
    const out = await call({
      action: 'multi_edit',
      file_path: 'src/a.ts',
      dry_run: true,
      edits: [
        { old_string: 'const a = 1;', new_string: 'const a = 2;' },
        { old_string: 'const b = 2;', new_string: '' },
      ],
    });
    expect(out).toMatchObject({ success: true, dry_run: true, added: 2, removed: 2 }); // the second line is left empty
    expect(out.diff).toContain('-const b = 2;');
    expect(snapshotTree(ws.root)).toBe(before);
  });

  it('write: new and existing files, with a diff, nothing written; refused paths stay refused', async () => {
    const before = snapshotTree(ws.root);
    const created = await call({ action: 'write', file_path: 'new/dir/f.txt', content: 'hello\n', dry_run: true });
    expect(created).toMatchObject({ success: true, dry_run: true, created: true, lines: 1 });
    expect(created.diff).toContain('+hello');
    const over = await call({ action: 'write', file_path: 'keep.txt', content: 'changed\n', dry_run: true });
    expect(over).toMatchObject({ success: true, created: false });
    expect(over.diff).toContain('-keep\n+changed');
    expect(existsSync(ws.path('new'))).toBe(false);
    expect(snapshotTree(ws.root)).toBe(before);
    expect(await call({ action: 'write', file_path: '../ws-evil/x', content: 'x', dry_run: true })).toMatchObject({
      error_code: 'outside_workspace',
    });
    expect(
      await call({ action: 'write', file_path: '.git/hooks/pre-commit', content: 'x', dry_run: true }),
    ).toMatchObject({ error_code: 'protected_path' });
  });

  it('move and mkdir: checked, reported, not done', async () => {
    const before = snapshotTree(ws.root);
    expect(
      await call({ action: 'move', file_path: 'keep.txt', destination: 'moved.txt', dry_run: true }),
    ).toMatchObject({ success: true, dry_run: true, from: 'keep.txt', relative: 'moved.txt', kind: 'file' });
    expect(await call({ action: 'move', file_path: 'keep.txt', destination: 'src/a.ts', dry_run: true })).toMatchObject(
      { error_code: 'already_exists' },
    );
    expect(await call({ action: 'mkdir', file_path: 'x/y/z', dry_run: true })).toMatchObject({
      success: true,
      created: true,
      dry_run: true,
    });
    expect(snapshotTree(ws.root)).toBe(before);
  });
});
