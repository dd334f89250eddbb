import { execFileSync } from 'node:child_process';
import { linkSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { CANARY, type Fixture, useFixture } from '@bough/test-utils';
import { beforeEach, describe, expect, it } from 'vitest';

let f: Fixture;
useFixture({ 'a.txt': 'hello\n', 'dir/b.txt': 'bee' }, (made) => {
  f = made;
});

type Opener = 'openRead' | 'openOrLoad (loaded)' | 'openOrLoad (opened)';
let opener: Opener = 'openRead';

/** Opens through the opener under test: openRead, or openOrLoad set to load every file here or none of them. */
function open(path: string, maxBytes?: number) {
  const cap = maxBytes === undefined ? {} : { maxBytes };
  if (opener === 'openRead') return f.ws.openRead(path, cap);
  return f.ws.openOrLoad(path, { ...cap, loadBytes: opener === 'openOrLoad (loaded)' ? 1 << 20 : 0 });
}

async function readText(path: string, maxBytes?: number) {
  const r = await open(path, maxBytes);
  if (!r.success) {
    expect(r.error).not.toContain(CANARY);
    return r.error_code;
  }
  if (r.bytes) {
    expect(opener).toBe('openOrLoad (loaded)');
    return r.bytes.toString('utf8');
  }
  expect(opener).not.toBe('openOrLoad (loaded)');
  try {
    return await r.handle.readFile('utf8');
  } finally {
    await r.handle.close();
  }
}

function canMknod(): boolean {
  try {
    execFileSync('mknod', [join(f.root, 'probe'), 'c', '1', '3'], { stdio: 'ignore' });
    execFileSync('rm', [join(f.root, 'probe')]);
    return true;
  } catch {
    return false;
  }
}

describe.each<Opener>(['openRead', 'openOrLoad (loaded)', 'openOrLoad (opened)'])('%s', (which) => {
  beforeEach(() => {
    opener = which;
  });

  it('reads a regular file and reports its metadata', async () => {
    const r = await open('a.txt');
    expect(r).toMatchObject({ success: true, path: f.path('a.txt'), relative: 'a.txt', size: 6 });
    if (r.success) await r.handle?.close();
    expect(await readText('dir/b.txt')).toBe('bee');
  });

  it('refuses directories, missing files, oversized files', async () => {
    expect(await readText('dir')).toBe('not_a_file');
    expect(await readText('nope.txt')).toBe('not_found');
    expect(await readText('a.txt', 5)).toBe('too_large');
    expect(await readText('a.txt', 6)).toBe('hello\n');
  });

  it('refuses every kind of link and outside path without leaking', async () => {
    symlinkSync(join(f.outside, 'secret.txt'), f.path('link'));
    symlinkSync(f.outside, f.path('evil'));
    expect(await readText('link')).toBe('symlink_rejected');
    expect(await readText('evil/secret.txt')).toBe('outside_workspace');
    expect(await readText('../ws-evil/secret.txt')).toBe('outside_workspace');
    expect(await readText(join(f.outside, 'secret.txt'))).toBe('outside_workspace');
    expect(await readText('/dev/zero')).toBe('outside_workspace');
    expect(await readText('/proc/self/environ')).toBe('outside_workspace');
  });

  it('refuses a FIFO without blocking', async () => {
    execFileSync('mkfifo', [f.path('pipe')]);
    expect(await readText('pipe')).toBe('special_file');
  });

  it('refuses a unix socket', async () => {
    const server: Server = createServer();
    await new Promise<void>((done) => server.listen(f.path('sock'), done));
    try {
      expect(await readText('sock')).toBe('special_file');
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('refuses a character device inside the workspace', async (ctx) => {
    if (!canMknod()) ctx.skip();
    execFileSync('mknod', [f.path('zero'), 'c', '1', '5']);
    expect(await readText('zero')).toBe('special_file');
    symlinkSync('/dev/zero', f.path('zlink'));
    expect(await readText('zlink')).toBe('symlink_rejected');
  });

  it('hard links to outside files are a documented limit for reads (same inode, readable)', async () => {
    linkSync(join(f.outside, 'secret.txt'), f.path('hard.txt'));
    expect(await readText('hard.txt')).toContain(CANARY);
  });

  it('protected names are refused in every case variant', async () => {
    for (const name of ['.env', '.Env', '.env.', '.env  ', 'server.key', 'id_ed25519', 'ID_DSA.']) {
      f.write(name, 'TOKEN=abc');
      expect(await readText(name)).toBe('protected_path');
    }
  });
});

describe('openOrLoad', () => {
  it('loads a file up to loadBytes whole and opens a bigger one, with the same metadata', async () => {
    f.write('big.txt', 'x'.repeat(100));
    const small = await f.ws.openOrLoad('big.txt', { loadBytes: 100 });
    expect(small).toMatchObject({ success: true, path: f.path('big.txt'), relative: 'big.txt', size: 100 });
    expect(small.success && small.handle).toBe(undefined);
    expect(small.success && small.bytes?.toString()).toBe('x'.repeat(100));
    const big = await f.ws.openOrLoad('big.txt', { loadBytes: 99 });
    expect(big).toMatchObject({ success: true, size: 100 });
    expect(big.success && big.bytes).toBe(undefined);
    if (big.success) await big.handle?.close();
  });

  it('an empty file is loaded as no bytes', async () => {
    f.write('empty.txt', '');
    const r = await f.ws.openOrLoad('empty.txt', { loadBytes: 10 });
    expect(r.success && r.bytes?.length).toBe(0);
  });

  it('maxBytes still refuses before loading', async () => {
    expect(await f.ws.openOrLoad('a.txt', { loadBytes: 100, maxBytes: 5 })).toMatchObject({ error_code: 'too_large' });
  });
});
