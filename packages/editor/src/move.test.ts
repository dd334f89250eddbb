import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';
import type { EditorInput } from './schema.js';

type Out = Record<string, unknown> & { success: boolean; error_code?: string; error?: string };

describe('move and mkdir', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'a.txt': 'A\n', 'b.txt': 'B\n', 'dir/inner.txt': 'I\n' });
  });
  afterEach(() => ws.cleanup());
  const call = async (req: Record<string, unknown>) =>
    (await handleEditor(req as EditorInput, { workspaceRoot: ws.root })) as Out;
  const move = (file_path: string, destination: string, extra: Record<string, unknown> = {}) =>
    call({ action: 'move', file_path, destination, ...extra });

  it('renames a file keeping its bytes, mode and inode, creating missing parents', async () => {
    chmodSync(ws.path('a.txt'), 0o751);
    const ino = statSync(ws.path('a.txt')).ino;
    const out = await move('a.txt', 'new/place/a2.txt');
    expect(out).toMatchObject({
      success: true,
      from: 'a.txt',
      relative: 'new/place/a2.txt',
      kind: 'file',
      overwrote: false,
    });
    expect(existsSync(ws.path('a.txt'))).toBe(false);
    const st = statSync(ws.path('new/place/a2.txt'));
    expect(st.ino).toBe(ino);
    expect(st.mode & 0o777).toBe(0o751);
    expect(readFileSync(ws.path('new/place/a2.txt'), 'utf8')).toBe('A\n');
  });

  it('moves a directory', async () => {
    expect(await move('dir', 'dir2')).toMatchObject({ success: true, kind: 'directory' });
    expect(readFileSync(ws.path('dir2/inner.txt'), 'utf8')).toBe('I\n');
  });

  it('refuses to overwrite unless asked, and then replaces only a file', async () => {
    expect(await move('a.txt', 'b.txt')).toMatchObject({ error_code: 'already_exists' });
    expect(readFileSync(ws.path('b.txt'), 'utf8')).toBe('B\n');
    expect(await move('a.txt', 'dir')).toMatchObject({ error_code: 'already_exists' });
    expect(await move('dir', 'b.txt', { overwrite: true })).toMatchObject({ success: false });
    expect(await move('a.txt', 'b.txt', { overwrite: true })).toMatchObject({ success: true, overwrote: true });
    expect(readFileSync(ws.path('b.txt'), 'utf8')).toBe('A\n');
  });

  it('refuses escapes, links, protected names and .git at either end; nothing outside changes', async () => {
    const outsideBefore = snapshotTree(ws.outside);
    ws.write('.env', 'SECRET\n');
    ws.write('.git/HEAD', 'ref: refs/heads/main\n');
    ws.write('keys/id_rsa', 'KEY\n');
    symlinkSync(ws.outside, ws.path('out-link'));
    symlinkSync(ws.path('b.txt'), ws.path('b-link'));
    const cases: Array<[string, string, string]> = [
      ['a.txt', '../ws-evil/a.txt', 'outside_workspace'],
      ['a.txt', `${ws.outside}/a.txt`, 'outside_workspace'],
      ['../ws-evil/secret.txt', 'stolen.txt', 'outside_workspace'],
      ['a.txt', 'out-link/a.txt', 'outside_workspace'],
      ['out-link/secret.txt', 'stolen.txt', 'outside_workspace'],
      ['b-link', 'c.txt', 'symlink_rejected'],
      ['a.txt', 'b-link', 'symlink_rejected'],
      ['.env', 'env.txt', 'protected_path'],
      ['a.txt', '.env', 'protected_path'],
      ['a.txt', 'server.pem', 'protected_path'],
      ['keys', 'keys2', 'protected_path'],
      ['a.txt', '.git/hooks/pre-commit', 'protected_path'],
      ['.git/HEAD', 'HEAD.txt', 'protected_path'],
      ['.git', 'git-copy', 'protected_path'],
      ['a.txt', '/etc/passwd', 'outside_workspace'],
      ['/proc/self/environ', 'env', 'outside_workspace'],
      ['missing.txt', 'x.txt', 'not_found'],
      ['dir', 'dir/sub/dir', 'invalid_path'],
      ['a.txt', 'a.txt', 'invalid_path'],
      ['.', 'root2', 'invalid_path'],
    ];
    for (const [from, to, code] of cases) {
      const out = await move(from, to, { overwrite: true });
      expect({ from, to, code: out.error_code }).toEqual({ from, to, code });
      expect(out.error).not.toContain('OUTSIDE-SECRET');
    }
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('A\n');
    expect(readFileSync(ws.path('.env'), 'utf8')).toBe('SECRET\n');
    expect(lstatSync(ws.path('b-link')).isSymbolicLink()).toBe(true);
    expect(snapshotTree(ws.outside)).toBe(outsideBefore);
  });

  it('a destination whose parent is a link leading outside is refused before any mkdir', async () => {
    symlinkSync(ws.outside, ws.path('evil'));
    expect(await move('a.txt', 'evil/deeper/a.txt')).toMatchObject({ error_code: 'outside_workspace' });
    expect(existsSync(`${ws.outside}/deeper`)).toBe(false);
  });

  it('mkdir creates parents, reports an existing directory, refuses files, links and .git', async () => {
    expect(await call({ action: 'mkdir', file_path: 'p/q/r' })).toMatchObject({
      success: true,
      created: true,
      relative: 'p/q/r',
    });
    expect(statSync(ws.path('p/q/r')).isDirectory()).toBe(true);
    expect(await call({ action: 'mkdir', file_path: 'p/q' })).toMatchObject({ success: true, created: false });
    expect(await call({ action: 'mkdir', file_path: 'a.txt' })).toMatchObject({ error_code: 'not_a_directory' });
    expect(await call({ action: 'mkdir', file_path: 'a.txt/sub' })).toMatchObject({ error_code: 'not_a_directory' });
    symlinkSync(ws.outside, ws.path('evil'));
    expect(await call({ action: 'mkdir', file_path: 'evil/x' })).toMatchObject({ error_code: 'outside_workspace' });
    mkdirSync(ws.path('.git'));
    expect(await call({ action: 'mkdir', file_path: '.git/hooks' })).toMatchObject({ error_code: 'protected_path' });
    expect(await call({ action: 'mkdir', file_path: '../ws-evil/made' })).toMatchObject({
      error_code: 'outside_workspace',
    });
    expect(existsSync(`${ws.outside}/x`)).toBe(false);
    expect(existsSync(`${ws.outside}/made`)).toBe(false);
  });

  it('needs a destination', async () => {
    expect(await call({ action: 'move', file_path: 'a.txt' })).toMatchObject({ error_code: 'invalid_request' });
  });
});
