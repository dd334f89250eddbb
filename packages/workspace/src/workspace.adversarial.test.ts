// Adversarial cases for the workspace gate, table-driven by SECURITY.md category. Every case checks the outcome,
// that nothing outside changed, that no outside or protected byte shows up in the result, and that the next call works.
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { CANARY, type Fixture, makeFixture } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PathIntent } from './resolved-path.js';

const PROTECTED_CANARY = 'PROTECTED-CANARY-BYTES';

let f: Fixture;
let before: string;

beforeEach(() => {
  f = makeFixture({
    'a.txt': 'inside a\n',
    'sub/b.txt': 'inside b\n',
    'sub/deep/c.txt': 'inside c\n',
    '.env': `${PROTECTED_CANARY}\n`,
    'conf/.env.local': `${PROTECTED_CANARY}\n`,
    '.ssh/id_ed25519': `${PROTECTED_CANARY}\n`,
  });
  // Links of every shape: out, relative out, dangling, looping, chained, inside, and an inside-looking one under a link out.
  symlinkSync(f.outside, f.path('out'));
  symlinkSync('../ws-evil', f.path('rel-out'));
  symlinkSync(join(f.outside, 'secret.txt'), f.path('file-out'));
  symlinkSync(f.path('nowhere'), f.path('dangling'));
  symlinkSync('loop-b', f.path('loop-a'));
  symlinkSync('loop-a', f.path('loop-b'));
  symlinkSync('chain-2', f.path('chain-1'));
  symlinkSync('out', f.path('chain-2'));
  symlinkSync('sub', f.path('in-link'));
  symlinkSync(f.path('a.txt'), f.path('file-in'));
  symlinkSync('.env', f.path('env-alias'));
  // ws-evil/dir/back points into the workspace: reached through `out`, its parent is outside.
  symlinkSync(f.root, join(f.outside, 'dir', 'back'));
  before = f.snapshotOutside();
});

afterEach(() => f.cleanup());

/** The guarantees after every call: nothing outside changed, no leak, and the gate still answers. */
async function guarantees(result: unknown, input?: string): Promise<void> {
  expect(f.snapshotOutside()).toBe(before);
  // The caller's own words may be quoted back; anything else naming the outside would be an oracle.
  let text = JSON.stringify(result) ?? '';
  if (input) text = text.split(JSON.stringify(input).slice(1, -1)).join('<input>');
  expect(text).not.toContain(CANARY);
  expect(text).not.toContain(PROTECTED_CANARY);
  expect(text).not.toContain('ws-evil/'); // no oracle: a refused link's target is never echoed
  const next = await f.ws.resolve('a.txt', 'read');
  expect(next.success).toBe(true);
}

async function codeOf(path: string, intent: PathIntent): Promise<string> {
  const r = await f.ws.resolve(path, intent);
  await guarantees(r, path);
  return r.success ? 'ok' : r.error_code;
}

const INTENTS: PathIntent[] = ['read', 'write', 'list'];

describe('lexical traversal and prefix confusion', () => {
  const cases = [
    '..',
    '../',
    '../..',
    '../ws-evil',
    '../ws-evil/secret.txt',
    '../ws-evil/new.txt',
    'sub/../../ws-evil/secret.txt',
    'sub/deep/../../../ws-evil/secret.txt',
    './../ws-evil/secret.txt',
    'a/b/../../../ws-evil/x',
    '../ws/../ws-evil/secret.txt',
    '../ws-evil/../ws-evil/secret.txt',
    '../../../../../../../../etc/passwd',
    '/etc/passwd',
    '/',
    '//',
    '///etc//passwd',
    '/tmp',
  ];
  for (const path of cases) {
    it.each(INTENTS)(`${JSON.stringify(path)} (%s) is outside_workspace`, async (intent) => {
      expect(await codeOf(path, intent)).toBe('outside_workspace');
    });
  }

  it('refuses the outside sibling by absolute path, whatever the spelling', async () => {
    for (const path of [
      join(f.outside, 'secret.txt'),
      `${f.root}-evil/secret.txt`,
      `${f.root}/../ws-evil/secret.txt`,
      `${f.root}//..//ws-evil//secret.txt`,
      `${f.root}/sub/../../ws-evil`,
    ]) {
      for (const intent of INTENTS) expect(await codeOf(path, intent), path).toBe('outside_workspace');
    }
  });

  it('accepts paths that leave and come back lexically, and the root itself in every spelling', async () => {
    const inside: Array<[string, string]> = [
      ['../ws/a.txt', 'a.txt'],
      ['sub/../a.txt', 'a.txt'],
      ['./a.txt', 'a.txt'],
      ['sub//b.txt', 'sub/b.txt'],
      ['sub/./deep/./c.txt', 'sub/deep/c.txt'],
      [`${f.root}/a.txt`, 'a.txt'],
      [`${f.root}//sub///b.txt`, 'sub/b.txt'],
    ];
    for (const [path, relative] of inside) {
      const r = await f.ws.resolve(path, 'read');
      expect(r, path).toMatchObject({ success: true, relative });
    }
    for (const root of ['.', './', './/', f.root, `${f.root}/`, `${f.root}/.`, 'sub/..']) {
      expect(await f.ws.resolve(root, 'list'), root).toMatchObject({ success: true, relative: '.' });
      expect(await codeOf(root, 'write'), root).toBe('not_a_file');
    }
    await guarantees(undefined);
  });

  it('treats url-encoded dots, backslashes and newlines as literal names', async () => {
    const names = ['%2e%2e', '%2e%2e/ws-evil', '..%2fws-evil', '..\\ws-evil\\secret.txt', 'x\n..', '...', '....'];
    for (const [i, name] of names.entries()) {
      expect(await codeOf(name, 'read'), name).toBe('not_found');
      const w = await f.ws.writeFile(join('lit', String(i), name), 'literal');
      expect(w, name).toMatchObject({ success: true });
      if (w.success) expect(readFileSync(w.path, 'utf8')).toBe('literal');
      await guarantees(w);
    }
  });
});

describe('absolute and pseudo-filesystem paths', () => {
  const pseudo = [
    '/proc/self/cwd',
    '/proc/self/cwd/a.txt',
    '/proc/self/root',
    '/proc/self/root/etc/passwd',
    '/proc/self/environ',
    '/proc/self/fd/0',
    '/proc/self/fd/1',
    `/proc/${process.pid}/fd/0`,
    `/proc/${process.pid}/root/etc/passwd`,
    '/proc/thread-self/cwd',
    '/dev/stdin',
    '/dev/stdout',
    '/dev/fd/0',
    '/dev/fd/3',
    '/dev/zero',
    '/dev/urandom',
    '/dev/null',
    '/dev/tty',
    '/dev/shm',
    '/sys',
    '/sys/kernel',
    '/proc/../etc/passwd',
  ];
  for (const path of pseudo) {
    it.each(INTENTS)(`${path} (%s) is outside_workspace`, async (intent) => {
      expect(await codeOf(path, intent)).toBe('outside_workspace');
    });
  }

  it('refuses a workspace path that goes through /proc to reach the workspace itself', async () => {
    for (const path of [`/proc/self/root${f.root}/a.txt`, `/proc/self/root${f.root}/.env`]) {
      expect(await codeOf(path, 'read'), path).toBe('outside_workspace');
      expect(await f.ws.openRead(path)).toMatchObject({ error_code: 'outside_workspace' });
      expect(await f.ws.writeFile(path, 'x')).toMatchObject({ error_code: 'outside_workspace' });
    }
    expect(readFileSync(f.path('a.txt'), 'utf8')).toBe('inside a\n');
    await guarantees(undefined);
  });
});

describe('symlinks', () => {
  const table: Array<[string, string]> = [
    ['out', 'symlink_rejected'],
    ['out/secret.txt', 'outside_workspace'],
    ['out/dir/x.txt', 'outside_workspace'],
    ['out/new.txt', 'outside_workspace'],
    ['out/dir/back/a.txt', 'outside_workspace'],
    ['rel-out', 'symlink_rejected'],
    ['rel-out/secret.txt', 'outside_workspace'],
    ['file-out', 'symlink_rejected'],
    ['dangling', 'symlink_rejected'],
    ['dangling/x', 'symlink_rejected'],
    ['loop-a', 'symlink_rejected'],
    ['loop-a/x', 'symlink_rejected'],
    ['chain-1', 'symlink_rejected'],
    ['chain-1/secret.txt', 'outside_workspace'],
    ['in-link', 'symlink_rejected'],
    ['file-in', 'symlink_rejected'],
    ['env-alias', 'symlink_rejected'],
  ];
  for (const [path, code] of table) {
    it(`${path} → ${code} for read, write and list`, async () => {
      for (const intent of INTENTS) expect(await codeOf(path, intent), intent).toBe(code);
      expect(await f.ws.openRead(path)).toMatchObject({ error_code: code });
      const w = await f.ws.writeFile(path, 'overwrite attempt');
      expect(w).toMatchObject({ error_code: code });
      if (path !== 'in-link') expect(await f.ws.mkdir(`${path}/made`)).toMatchObject({ success: false });
      await guarantees(w, path);
    });
  }

  it('resolves an inside intermediate link and keeps working through it', async () => {
    expect(await f.ws.resolve('in-link/b.txt', 'read')).toMatchObject({ success: true, relative: 'sub/b.txt' });
    const w = await f.ws.writeFile('in-link/deep/new.txt', 'via link');
    expect(w).toMatchObject({ success: true, relative: 'sub/deep/new.txt' });
    expect(readFileSync(f.path('sub/deep/new.txt'), 'utf8')).toBe('via link');
    await guarantees(w);
  });

  it('a link whose target is inside but whose own parent is a link out is refused', async () => {
    // out/dir/back → root: the final target is inside, but the path walks through ws-evil.
    for (const path of ['out/dir/back', 'out/dir/back/a.txt', 'rel-out/dir/back/sub', 'chain-1/dir/back']) {
      expect(await codeOf(path, 'list'), path).toBe('outside_workspace');
      expect(await codeOf(path, 'write'), path).toBe('outside_workspace');
    }
  });

  it('an absolute alias that really lands inside is the inside file, still under every rule', async () => {
    const alias = join(f.outside, 'dir', 'back');
    expect(await f.ws.resolve(join(alias, 'a.txt'), 'read')).toMatchObject({ success: true, relative: 'a.txt' });
    expect(await codeOf(join(alias, '.env'), 'read')).toBe('protected_path');
    expect(await codeOf(join(alias, 'out/secret.txt'), 'read')).toBe('outside_workspace');
    expect(await codeOf(join(alias, 'file-out'), 'read')).toBe('symlink_rejected');
  });

  it('an inside link to a protected file is refused without reading it', async () => {
    const r = await f.ws.openRead('env-alias');
    expect(r).toMatchObject({ error_code: 'symlink_rejected' });
    await guarantees(r);
  });
});

describe('hard links and special files', () => {
  it('a FIFO never hangs a read, a write or a listing', async () => {
    execFileSync('mkfifo', [f.path('pipe')]);
    expect(await f.ws.openRead('pipe')).toMatchObject({ error_code: 'special_file' });
    expect(await f.ws.writeFile('pipe', 'x')).toMatchObject({ error_code: 'special_file' });
    expect(await codeOf('pipe', 'list')).toBe('special_file');
    const names: string[] = [];
    for await (const entry of f.ws.walk('.')) names.push(entry.relative);
    expect(names).not.toContain('pipe');
    await guarantees(names);
  });

  it('a unix socket is a special file', async () => {
    const path = f.path('sock');
    const server: Server = createServer();
    await new Promise<void>((done) => server.listen(path, done));
    try {
      expect(await f.ws.openRead('sock')).toMatchObject({ error_code: 'special_file' });
      expect(await f.ws.writeFile('sock', 'x')).toMatchObject({ error_code: 'special_file' });
      await guarantees(undefined);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('a write to a hard link of an outside file replaces the inside name and never touches the outside inode', async () => {
    linkSync(join(f.outside, 'secret.txt'), f.path('hard.txt'));
    const w = await f.ws.writeFile('hard.txt', 'replaced');
    expect(w).toMatchObject({ success: true, created: false });
    expect(readFileSync(f.path('hard.txt'), 'utf8')).toBe('replaced');
    await guarantees(w);
  });

  it('a hard link to a protected file is still refused under a protected name', async () => {
    linkSync(f.path('.env'), f.path('conf/.ENV'));
    expect(await f.ws.openRead('conf/.ENV')).toMatchObject({ error_code: 'protected_path' });
    await guarantees(undefined);
  });
});

describe('encoding, Unicode and case tricks in names', () => {
  const refusedNames = [
    '.env',
    '.ENV',
    '.Env',
    '.env.',
    '.env..',
    '.env ',
    '.env. .',
    '.env.local',
    '.ENV.LOCAL',
    '.env.production',
    '.env.local.',
    'conf/.env.local',
    '.env/inner.txt',
    '.netrc',
    '.NETRC',
    '.npmrc',
    '.pypirc',
    '.htpasswd',
    'id_rsa',
    'ID_RSA',
    'id_rsa.',
    'id_dsa',
    'id_ecdsa',
    'id_ed25519',
    '.ssh/id_ed25519',
    'server.pem',
    'server.PEM',
    'server.key',
    'tls.Key ',
    'cert.p12',
    'cert.pfx',
    'putty.ppk',
    './.env',
    'sub/../.env',
    `${'dir/'.repeat(3)}.env`,
  ];
  for (const name of refusedNames) {
    it(`${JSON.stringify(name)} is protected for read, write and list`, async () => {
      for (const intent of INTENTS) expect(await codeOf(name, intent), intent).toBe('protected_path');
      const w = await f.ws.writeFile(name, 'attempt');
      expect(w).toMatchObject({ error_code: 'protected_path' });
      await guarantees(w);
    });
  }

  const allowedNames = [
    '.env.example',
    '.env.sample',
    '.env.template',
    '.ENV.EXAMPLE',
    'id_rsa.pub',
    'id_ed25519.pub',
    'env',
    '.environment',
    'dotenv.ts',
    'key.ts',
    'keys',
    'pem.md',
    '.envrc',
    'ｉｄ_ｒｓａ',
  ];
  for (const name of allowedNames) {
    it(`${JSON.stringify(name)} is an ordinary name`, async () => {
      const w = await f.ws.writeFile(name, 'ordinary');
      expect(w).toMatchObject({ success: true });
      expect(await codeOf(name, 'read')).toBe('ok');
      await guarantees(w);
    });
  }

  it('NFC and NFD spellings of one name resolve independently and never escape', async () => {
    const nfc = 'caf\u00e9.txt';
    const nfd = 'cafe\u0301.txt';
    expect(await f.ws.writeFile(nfc, 'nfc')).toMatchObject({ success: true });
    expect(await f.ws.writeFile(nfd, 'nfd')).toMatchObject({ success: true });
    expect(readFileSync(f.path(nfc), 'utf8')).toBe('nfc');
    expect(readFileSync(f.path(nfd), 'utf8')).toBe('nfd');
    await guarantees(undefined);
  });

  it('over-long names and paths are invalid_path, and a component of exactly 255 bytes works', async () => {
    expect(await codeOf('x'.repeat(256), 'write')).toBe('invalid_path');
    expect(await codeOf('é'.repeat(128), 'write')).toBe('invalid_path');
    expect(await codeOf(`${'d/'.repeat(2100)}x`, 'read')).toBe('invalid_path');
    expect(await f.ws.writeFile('y'.repeat(255), 'ok')).toMatchObject({ success: true });
    for (const bad of ['', '\0', 'a\0b', '.env\0.txt', '~', '~/x', '~root']) {
      const r = await f.ws.resolve(bad, 'read');
      expect(r.success, JSON.stringify(bad)).not.toBe(true);
      if (bad !== '~root') expect(r).toMatchObject({ error_code: 'invalid_path' });
    }
    await guarantees(undefined);
  });
});

describe('protected names are never listed', () => {
  it('walk skips protected files and directories at every depth and counts them', async () => {
    f.write('.env.d/inner.txt', `${PROTECTED_CANARY}\n`);
    f.write('deep/er/.NPMRC', `${PROTECTED_CANARY}\n`);
    const names: string[] = [];
    const walk = f.ws.walk('.', { gitignore: false });
    let step = await walk.next();
    for (; !step.done; step = await walk.next()) names.push(step.value.relative);
    expect(names.some((n) => /(^|\/)(\.env|\.npmrc|id_ed25519)/i.test(n))).toBe(false);
    expect(names).not.toContain('.env.d/inner.txt');
    expect(step.value.skipped.protected).toBeGreaterThanOrEqual(4);
    expect(step.value.skipped.links).toBeGreaterThanOrEqual(10);
    await guarantees(names);
  });

  it('walk refuses to start in a protected directory or through a link', async () => {
    f.write('.env.d/inner.txt', 'x');
    for (const [start, code] of [
      ['.env.d', 'protected_path'],
      ['out', 'symlink_rejected'],
      ['out/dir', 'outside_workspace'],
      ['..', 'outside_workspace'],
    ] as const) {
      await expect(f.ws.walk(start).next(), start).rejects.toMatchObject({ failure: { error_code: code } });
    }
    await guarantees(undefined);
  });
});

describe('writes that would run code later', () => {
  it('refuses .git in any case and depth, as a directory or as a gitdir file', async () => {
    writeFileSync(f.path('.git'), 'gitdir: ./store\n');
    for (const path of [
      '.git',
      '.git/config',
      '.git/hooks/pre-commit',
      '.git/info/attributes',
      '.GIT/hooks/post-checkout',
      '.git./config',
      'sub/.git/hooks/pre-commit',
      'vendor/lib/.Git/config',
    ]) {
      expect(await codeOf(path, 'write'), path).toBe('protected_path');
      expect(await f.ws.mkdir(`${path}/x`), path).toMatchObject({ error_code: 'protected_path' });
    }
    expect(readFileSync(f.path('.git'), 'utf8')).toBe('gitdir: ./store\n');
    await guarantees(undefined);
  });

  it('refuses writes into the directory a .git file points to', async () => {
    writeFileSync(f.path('.git'), 'gitdir: ./store\n');
    for (const dir of ['store', 'store/objects', 'store/refs/heads', 'store/hooks'])
      mkdirSync(f.path(dir), { recursive: true });
    writeFileSync(f.path('store/HEAD'), 'ref: refs/heads/main\n');
    for (const path of ['store/hooks/pre-commit', 'store/config', 'store/info/attributes', 'store/HEAD']) {
      const w = await f.ws.writeFile(path, '#!/bin/sh\necho pwned\n');
      expect(w, path).toMatchObject({ error_code: 'protected_path' });
    }
    expect(await f.ws.mkdir('store/hooks/more')).toMatchObject({ error_code: 'protected_path' });
    expect(await f.ws.resolve('store/HEAD', 'read')).toMatchObject({ success: true });
    await guarantees(undefined);
  });

  it('refuses writes into a bare repository and a submodule store under any name', async () => {
    for (const repo of ['bare.git', 'vendor/mod-store']) {
      mkdirSync(f.path(`${repo}/objects`), { recursive: true });
      mkdirSync(f.path(`${repo}/refs`), { recursive: true });
      writeFileSync(f.path(`${repo}/HEAD`), 'ref: refs/heads/main\n');
      expect(await codeOf(`${repo}/hooks/post-merge`, 'write')).toBe('protected_path');
      expect(await codeOf(`${repo}/config`, 'write')).toBe('protected_path');
    }
    await guarantees(undefined);
  });

  it('cannot assemble a repository one piece at a time, in either order', async () => {
    expect(await f.ws.writeFile('evil1/config', '[core]\n\tfsmonitor = touch pwned\n')).toMatchObject({
      success: true,
    });
    expect(await f.ws.mkdir('evil1/objects')).toMatchObject({ success: true });
    expect(await f.ws.writeFile('evil1/HEAD', 'ref: refs/heads/main\n')).toMatchObject({
      error_code: 'protected_path',
    });
    expect(await f.ws.writeFile('evil2/HEAD', 'ref: refs/heads/main\n')).toMatchObject({ success: true });
    expect(await f.ws.mkdir('evil2/refs')).toMatchObject({ error_code: 'protected_path' });
    expect(await f.ws.writeFile('evil2/objects/x', 'x')).toMatchObject({ error_code: 'protected_path' });
    await guarantees(undefined);
  });

  it('ordinary project files named like git internals stay writable', async () => {
    for (const path of ['docs/HEAD.md', 'src/refs/index.ts', 'objects/model.ts', 'hooks/useThing.ts', 'config']) {
      expect(await f.ws.writeFile(path, 'x'), path).toMatchObject({ success: true });
    }
    await guarantees(undefined);
  });
});
