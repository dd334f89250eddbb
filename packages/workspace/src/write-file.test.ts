import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { CANARY, type Fixture, useFixture } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { resolveDetail } from './internal/resolver.js';
import { writeFileIn } from './write-file.js';

let f: Fixture;
const hooks = useFixture({ 'a.txt': 'old\n', 'src/b.ts': 'B' }, (made) => {
  f = made;
});

const ctx = () => ({ root: f.root, policy: { names: ['.env'], patterns: [], allow: [] }, limits: f.ws.limits });

async function writeCode(path: string, data = 'new') {
  const r = await f.ws.writeFile(path, data);
  if (r.success) return 'ok';
  expect(r.error).not.toContain(CANARY);
  return r.error_code;
}

describe('writeFile', () => {
  it('creates a new file with parents and reports it', async () => {
    const r = await f.ws.writeFile('n/m/o.txt', 'héllo');
    expect(r).toMatchObject({
      success: true,
      created: true,
      bytes: 6,
      relative: 'n/m/o.txt',
      path: f.path('n/m/o.txt'),
    });
    expect(readFileSync(f.path('n/m/o.txt'), 'utf8')).toBe('héllo');
    expect(await f.ws.writeFile('p/q.txt', new Uint8Array([1, 2, 3]), { createParents: false })).toMatchObject({
      error_code: 'not_found',
    });
  });

  it('honours a mode for new files', async () => {
    await f.ws.writeFile('run.sh', '#!/bin/sh\n', { mode: 0o700 });
    expect(statSync(f.path('run.sh')).mode & 0o777).toBe(0o700);
  });

  it('drops setuid and setgid when replacing a file, keeping the rest of the mode', async () => {
    chmodSync(f.path('a.txt'), 0o6755);
    expect(await f.ws.writeFile('a.txt', 'changed')).toMatchObject({ success: true, created: false });
    expect(lstatSync(f.path('a.txt')).mode & 0o7777).toBe(0o755);
  });

  it('replaces an existing file atomically and keeps its mode', async () => {
    chmodSync(f.path('a.txt'), 0o751);
    const ino = lstatSync(f.path('a.txt')).ino;
    expect(await f.ws.writeFile('a.txt', 'fresh')).toMatchObject({ success: true, created: false, bytes: 5 });
    const st = lstatSync(f.path('a.txt'));
    expect(st.mode & 0o7777).toBe(0o751);
    expect(st.ino).not.toBe(ino);
    expect(readFileSync(f.path('a.txt'), 'utf8')).toBe('fresh');
    expect(readdirSync(f.root).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('never modifies an outside file through a hard link', async () => {
    const outsideFile = join(f.outside, 'secret.txt');
    linkSync(outsideFile, f.path('hard.txt'));
    hooks.acceptOutside();
    expect(await writeCode('hard.txt', 'overwritten')).toBe('ok');
    expect(readFileSync(outsideFile, 'utf8')).toContain(CANARY);
    expect(readFileSync(f.path('hard.txt'), 'utf8')).toBe('overwritten');
  });

  it('never writes through a final symlink, live or dangling', async () => {
    symlinkSync(join(f.outside, 'secret.txt'), f.path('live'));
    symlinkSync(join(f.outside, 'created-by-attack.txt'), f.path('dangling'));
    symlinkSync('a.txt', f.path('inside-link'));
    expect(await writeCode('live')).toBe('symlink_rejected');
    expect(await writeCode('dangling')).toBe('symlink_rejected');
    expect(await writeCode('inside-link')).toBe('symlink_rejected');
    expect(readFileSync(f.path('a.txt'), 'utf8')).toBe('old\n');
  });

  it('never creates parents through a symlink', async () => {
    symlinkSync(f.outside, f.path('evil'));
    symlinkSync(join(f.outside, 'nothing-here'), f.path('dang'));
    expect(await writeCode('evil/new/deep.txt')).toBe('outside_workspace');
    expect(await writeCode('dang/deep.txt')).toBe('symlink_rejected');
    expect(await f.ws.mkdir('evil/sub')).toMatchObject({ error_code: 'outside_workspace' });
    expect(await f.ws.mkdir('dang/sub')).toMatchObject({ error_code: 'symlink_rejected' });
  });

  it('refuses traversal, absolute outside and pseudo-fs targets', async () => {
    for (const p of ['../ws-evil/secret.txt', `${f.root}-evil/secret.txt`, '/dev/null', '/proc/self/fd/1', '/tmp/x']) {
      expect(await writeCode(p)).toBe('outside_workspace');
    }
  });

  it('refuses writes into .git (hooks would run later) and into protected names', async () => {
    mkdirSync(f.path('.git/hooks'), { recursive: true });
    for (const p of ['.git/hooks/pre-commit', '.git/config', 'vendor/.git/hooks/post-merge', '.Git/HEAD']) {
      expect(await writeCode(p, '#!/bin/sh\necho pwned\n')).toBe('protected_path');
    }
    expect(readdirSync(f.path('.git/hooks'))).toEqual([]);
    expect(await f.ws.mkdir('.git/hooks/x')).toMatchObject({ error_code: 'protected_path' });
    for (const p of ['.env', '.env.local', 'config/.netrc', 'k.pem', '.ENV.']) {
      expect(await writeCode(p)).toBe('protected_path');
    }
  });

  it('refuses a directory target, a file used as a directory and oversized content', async () => {
    expect(await writeCode('src')).toBe('not_a_file');
    expect(await writeCode('a.txt/child')).toBe('not_a_directory');
    const small = await (await import('./workspace.js')).Workspace.open(f.root, { limits: { maxWriteBytes: 4 } });
    expect(await small.writeFile('big.txt', '12345')).toMatchObject({ error_code: 'too_large' });
  });

  it('cleans up the temp file when the final rename fails', async () => {
    const r = await writeFileIn(
      ctx(),
      'a.txt',
      'never lands',
      {},
      {
        beforeRename: (target) => {
          // a real race: the target turns into a non-empty directory, so rename(2) fails with EISDIR/ENOTEMPTY
          execRm(target);
          mkdirSync(join(target, 'inner'), { recursive: true });
        },
      },
    );
    expect(r).toMatchObject({ error_code: 'io_error' });
    expect(readdirSync(f.root).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a link planted between check and create is never followed', async () => {
    const target = join(f.outside, 'planted.txt');
    const r = await writeFileIn(
      ctx(),
      'fresh.txt',
      'payload',
      {},
      {
        beforeCreate: (path) => symlinkSync(target, path),
      },
    );
    expect(r).toMatchObject({ error_code: 'changed_during_check' });
    expect(lstatSync(f.path('fresh.txt')).isSymbolicLink()).toBe(true);
  });

  it('a link swapped in before the rename is replaced, not written through', async () => {
    const r = await writeFileIn(
      ctx(),
      'a.txt',
      'safe',
      {},
      {
        beforeRename: (path) => {
          execRm(path);
          symlinkSync(join(f.outside, 'secret.txt'), path);
        },
      },
    );
    expect(r).toMatchObject({ success: true });
    expect(lstatSync(f.path('a.txt')).isFile()).toBe(true);
    expect(readFileSync(join(f.outside, 'secret.txt'), 'utf8')).toContain(CANARY);
  });

  it('mkdir creates nested directories and accepts an existing one', async () => {
    expect(await f.ws.mkdir('x/y/z')).toMatchObject({ success: true, path: f.path('x/y/z') });
    expect(statSync(f.path('x/y/z')).isDirectory()).toBe(true);
    expect(await f.ws.mkdir('x/y/')).toMatchObject({ success: true });
    expect(await f.ws.mkdir('a.txt')).toMatchObject({ error_code: 'not_a_directory' });
    expect((await resolveDetail(ctx(), 'x/y/z', 'list')).success).toBe(true);
  });
});

function execRm(path: string) {
  rmSync(path, { recursive: true, force: true });
}
