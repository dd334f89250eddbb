import { execFileSync } from 'node:child_process';
import { linkSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CANARY, type Fixture, makeFixture } from './test-fixture.js';

let f: Fixture;
let before: string;
beforeEach(() => {
  f = makeFixture({ 'a.txt': 'hello\n', 'dir/b.txt': 'bee' });
  before = f.snapshotOutside();
});
afterEach(() => {
  expect(f.snapshotOutside()).toBe(before);
  f.cleanup();
});

async function readText(path: string, maxBytes?: number) {
  const r = await f.ws.openRead(path, maxBytes === undefined ? {} : { maxBytes });
  if (!r.success) {
    expect(r.error).not.toContain(CANARY);
    return r.error_code;
  }
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

describe('openRead', () => {
  it('reads a regular file and reports its metadata', async () => {
    const r = await f.ws.openRead('a.txt');
    expect(r).toMatchObject({ success: true, path: f.path('a.txt'), relative: 'a.txt', size: 6 });
    if (r.success) await r.handle.close();
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
