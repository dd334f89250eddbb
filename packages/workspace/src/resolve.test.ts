import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from '@bough/core';
import { CANARY, type Fixture, useFixture } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { resolveInWorkspace, Workspace } from './workspace.js';

let f: Fixture;
useFixture({ 'a.txt': 'A', 'src/b.ts': 'B', 'src/deep/c.ts': 'C', '.env.example': 'X=1' }, (made) => {
  f = made;
});

async function code(path: string, intent: 'read' | 'write' | 'list' = 'read') {
  const r = await f.ws.resolve(path, intent);
  if (r.success) return 'ok';
  expect(r.error).not.toContain(CANARY);
  if (!path.includes(f.outside)) expect(r.error).not.toContain(f.outside);
  return r.error_code;
}

describe('lexical rules', () => {
  it.each([
    ['', 'invalid_path'],
    ['   ', 'invalid_path'],
    ['\t\n ', 'invalid_path'],
    ['a\0.txt', 'invalid_path'],
    ['x'.repeat(5000), 'invalid_path'],
    [`${'n'.repeat(256)}.txt`, 'invalid_path'],
    ['~', 'invalid_path'],
    ['~/.ssh/id_rsa', 'invalid_path'],
  ])('%j → %s', async (path, expected) => {
    expect(await code(path)).toBe(expected);
  });

  it('accepts plain relative paths and normalises them', async () => {
    const r = await f.ws.resolve('./src/../src//b.ts', 'read');
    expect(r).toMatchObject({
      success: true,
      relative: 'src/b.ts',
      kind: 'file',
      exists: true,
      path: f.path('src/b.ts'),
    });
    expect(await f.ws.resolve('.', 'list')).toMatchObject({ success: true, relative: '.', kind: 'directory' });
  });
});

describe('traversal and prefix confusion', () => {
  it.each([
    '../ws-evil/secret.txt',
    'a/../../ws-evil/secret.txt',
    'src/deep/../../../ws-evil/secret.txt',
    '..',
    '../ws-evil/../ws-evil/secret.txt',
    '../ws-evil',
  ])('%s is outside', async (path) => {
    for (const intent of ['read', 'write', 'list'] as const) expect(await code(path, intent)).toBe('outside_workspace');
  });

  it('a sibling sharing the root prefix is outside (absolute form)', async () => {
    expect(await code(join(f.outside, 'secret.txt'))).toBe('outside_workspace');
    expect(await code(`${f.root}-evil/secret.txt`, 'write')).toBe('outside_workspace');
  });

  it('climbing out and back in is fine', async () => {
    expect(await f.ws.resolve('../ws/a.txt', 'read')).toMatchObject({ success: true, relative: 'a.txt' });
  });
});

describe('absolute and pseudo-filesystem paths', () => {
  it('absolute paths inside are accepted', async () => {
    expect(await f.ws.resolve(f.path('src/b.ts'), 'read')).toMatchObject({ success: true, relative: 'src/b.ts' });
    expect(await f.ws.resolve(f.root, 'list')).toMatchObject({ success: true, relative: '.' });
  });

  it.each(['/etc/passwd', '/', '/proc/self/environ', '/proc/self/cwd/a.txt', '/dev/zero', '/dev/stdin', '/sys/kernel'])(
    '%s is outside',
    async (path) => {
      expect(await code(path)).toBe('outside_workspace');
      expect(await code(path, 'write')).toBe('outside_workspace');
    },
  );

  it('/proc/self/root aliases are refused even when they name a file inside', async () => {
    expect(await code(`/proc/self/root${f.path('a.txt')}`)).toBe('outside_workspace');
    expect(await code(`/proc/self/root${f.outside}/secret.txt`)).toBe('outside_workspace');
  });

  it('an alias of the root through a symlinked ancestor is accepted and reported by its real path', async () => {
    symlinkSync(f.base, join(f.base, 'alias'));
    const r = await f.ws.resolve(join(f.base, 'alias', 'ws', 'a.txt'), 'read');
    expect(r).toMatchObject({ success: true, path: f.path('a.txt'), relative: 'a.txt' });
    expect(await f.ws.resolve(join(f.base, 'alias', 'ws', 'new', 'x.txt'), 'write')).toMatchObject({ success: true });
    expect(await code(join(f.base, 'alias', 'ws-evil', 'secret.txt'))).toBe('outside_workspace');
    expect(await code(join(f.base, 'alias', 'ws', 'a.txt', '..', '..', 'ws-evil', 'x'))).toBe('outside_workspace');
  });
});

describe('symlinks', () => {
  it('a final symlink is refused whatever it points at, without naming the target', async () => {
    symlinkSync(join(f.outside, 'secret.txt'), f.path('out-link'));
    symlinkSync('a.txt', f.path('in-link'));
    symlinkSync('nowhere', f.path('dangling'));
    symlinkSync('loop2', f.path('loop1'));
    symlinkSync('loop1', f.path('loop2'));
    for (const name of ['out-link', 'in-link', 'dangling', 'loop1']) {
      for (const intent of ['read', 'write', 'list'] as const) {
        const r = await f.ws.resolve(name, intent);
        expect(r.success).toBeFalsy();
        if (!r.success) {
          expect(r.error_code).toBe('symlink_rejected');
          expect(r.error).not.toContain('ws-evil');
          expect(r.error).not.toContain('nowhere');
        }
      }
    }
  });

  it('a plain relative path resolves exactly like its other spellings', async () => {
    for (const [plain, others] of [
      ['src/deep/c.ts', ['./src/deep/c.ts', 'src//deep/c.ts', 'src/./deep/c.ts', 'src/x/../deep/c.ts']],
      ['src/deep', ['src/deep/.', './src/deep']],
      ['src/new/file.ts', ['./src/new/file.ts', 'src/deep/../new/file.ts']],
    ] as const) {
      for (const intent of ['read', 'write', 'list'] as const) {
        // A refusal quotes the path as asked; everything else must match.
        const settle = async (path: string) => {
          const got = await f.ws.resolve(path, intent);
          return got.success ? got : got.error_code;
        };
        const expected = await settle(plain);
        for (const other of [...others, f.path(plain)]) {
          expect({ other, intent, got: await settle(other) }).toEqual({ other, intent, got: expected });
        }
      }
    }
  });

  it('an intermediate link that stays inside is resolved to its real path', async () => {
    symlinkSync('src', f.path('srclink'));
    symlinkSync('srclink', f.path('chain'));
    expect(await f.ws.resolve('srclink/b.ts', 'read')).toMatchObject({ success: true, path: f.path('src/b.ts') });
    expect(await f.ws.resolve('chain/deep/c.ts', 'read')).toMatchObject({ success: true, relative: 'src/deep/c.ts' });
    expect(await f.ws.resolve('chain/new.ts', 'write')).toMatchObject({
      success: true,
      exists: false,
      kind: 'missing',
    });
  });

  it('an intermediate link that leads out is refused for every intent', async () => {
    symlinkSync(f.outside, f.path('evil'));
    symlinkSync('evil', f.path('hop'));
    symlinkSync('/proc/self/root', f.path('rootfs'));
    for (const p of ['evil/secret.txt', 'hop/dir/x.txt', 'evil/new.txt', 'rootfs/etc/passwd']) {
      for (const intent of ['read', 'write', 'list'] as const) expect(await code(p, intent)).toBe('outside_workspace');
    }
  });

  it('dangling and looping intermediate links are refused', async () => {
    symlinkSync('missing-dir', f.path('dang'));
    symlinkSync('l2', f.path('l1'));
    symlinkSync('l1', f.path('l2'));
    expect(await code('dang/x', 'write')).toBe('symlink_rejected');
    expect(await code('l1/x')).toBe('symlink_rejected');
  });

  it('a long chain of links staying inside resolves', async () => {
    let prev = 'src';
    for (let i = 0; i < 20; i++) {
      symlinkSync(prev, f.path(`c${i}`));
      prev = `c${i}`;
    }
    expect(await f.ws.resolve(`${prev}/b.ts`, 'read')).toMatchObject({ success: true, relative: 'src/b.ts' });
  });

  it('a file used as a directory is not_a_directory', async () => {
    expect(await code('a.txt/x', 'write')).toBe('not_a_directory');
  });
});

describe('intents and kinds', () => {
  it('maps kinds to intents', async () => {
    expect(await code('missing.txt')).toBe('not_found');
    expect(await code('missing', 'list')).toBe('not_found');
    expect(await code('a.txt', 'list')).toBe('not_a_directory');
    expect(await code('src', 'write')).toBe('not_a_file');
    expect(await code('a.txt/')).toBe('not_a_directory');
    expect(await code('newdir/', 'write')).toBe('not_a_file');
    expect(await code('src/', 'list')).toBe('ok');
    expect(await f.ws.resolve('new/dir/file.txt', 'write')).toMatchObject({
      exists: false,
      kind: 'missing',
      path: f.path('new/dir/file.txt'),
    });
  });

  it('resolveInWorkspace works one-shot and a bad root throws', async () => {
    expect(await resolveInWorkspace(f.root, 'a.txt', 'read')).toMatchObject({ success: true });
    // A bad root is a set-up mistake: a ConfigurationError (the one bough error base), never a plain Error.
    await expect(Workspace.open(join(f.root, 'nope'))).rejects.toBeInstanceOf(ConfigurationError);
    expect(() => Workspace.openSync(f.path('a.txt'))).toThrow(ConfigurationError);
    expect(f.ws.relative(f.path('src/b.ts'))).toBe('src/b.ts');
    expect(f.ws.relative(f.root)).toBe('.');
  });
});
