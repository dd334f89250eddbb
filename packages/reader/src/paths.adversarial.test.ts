import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReaderTool, handleReader } from './index.js';
import type { ReaderInput } from './schema.js';

const SECRETS = ['OUTSIDE-SECRET-CANARY', 'hunter2', 'BEGIN PRIVATE', 'root:x:0'];

// A separate process swaps `target` forever between a real file/dir and a link to the outside.
const RACER = `
const fs = require('node:fs');
const [target, linkTo, kind] = process.argv.slice(-3);
process.stdout.write('ready\\n');
for (;;) {
  try { fs.rmSync(target, { recursive: true, force: true }); } catch {}
  try { fs.symlinkSync(linkTo, target); } catch {}
  try { fs.rmSync(target, { recursive: true, force: true }); } catch {}
  try {
    if (kind === 'dir') { fs.mkdirSync(target); fs.writeFileSync(target + '/x.txt', 'inside\\n'); }
    else fs.writeFileSync(target, 'inside\\n');
  } catch {}
}`;

describe('reader paths under attack', () => {
  let ws: TempWorkspace;
  let before: string;
  let racer: ChildProcess | undefined;
  let server: Server | undefined;
  beforeEach(() => {
    ws = makeWorkspace({
      'ok.txt': 'fine\n',
      '.env': 'API_TOKEN=hunter2\n',
      'keys/id_ed25519': '-----BEGIN PRIVATE KEY-----\n',
    });
    before = snapshotTree(ws.outside);
  });
  afterEach(async () => {
    if (racer && racer.exitCode === null) {
      const exited = new Promise((done) => racer?.once('exit', done));
      racer.kill('SIGKILL');
      await exited;
    }
    racer = undefined;
    if (server) await new Promise<void>((done) => server?.close(() => done()));
    server = undefined;
    expect(snapshotTree(ws.outside)).toBe(before);
    // the same handler still answers after whatever the case did
    expect(await handleReader({ action: 'read', path: 'ok.txt' }, { workspaceRoot: ws.root })).toMatchObject({
      success: true,
      content: '1\tfine',
    });
    ws.cleanup();
  });
  const call = (action: string, path: string, extra: Record<string, unknown> = {}) =>
    handleReader({ action, path, ...extra } as ReaderInput, { workspaceRoot: ws.root });
  const noLeak = (out: unknown, label: string) => {
    const text = JSON.stringify(out);
    for (const secret of SECRETS) expect(text, label).not.toContain(secret);
  };
  const refused = async (action: string, path: string, codes: string[]) => {
    const out = (await call(action, path)) as { success: boolean; error_code?: string };
    expect(out.success, `${action} ${JSON.stringify(path)}`).toBe(false);
    expect(codes, `${action} ${JSON.stringify(path)} → ${out.error_code}`).toContain(out.error_code);
    noLeak(out, path);
    return out;
  };
  const startRacer = async (target: string, linkTo: string, kind: 'file' | 'dir') => {
    racer = spawn(process.execPath, ['-e', RACER, target, linkTo, kind], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((done) => racer?.stdout?.once('data', () => done()));
  };

  it('treats encoded and backslashed traversal as literal names, and real traversal as outside', async () => {
    for (const p of [
      '%2e%2e/ws-evil/secret.txt',
      '..\\ws-evil\\secret.txt',
      '....//ws-evil/secret.txt',
      '..%2fws-evil',
    ]) {
      await refused('read', p, ['not_found']);
    }
    for (const p of [
      './../ws/../ws-evil/secret.txt',
      'ok.txt/../../ws-evil/secret.txt',
      `${ws.root}/../ws-evil`,
      '..',
    ]) {
      for (const action of ['read', 'open', 'list_dir']) await refused(action, p, ['outside_workspace']);
    }
    await refused('read', `${'a/'.repeat(3000)}x`, ['invalid_path', 'not_found']);
    await refused('read', '.', ['not_a_file']);
  });

  it('refuses pseudo-filesystem and device paths for every action', async () => {
    for (const p of [
      '/dev/zero',
      '/dev/urandom',
      '/dev/tty',
      '/dev/fd/0',
      '/proc/self/fd/0',
      '/proc/self/mem',
      '/proc/self/maps',
      '/proc/1/root/etc/passwd',
      `/proc/self/root${ws.outside}/secret.txt`,
      `/proc/self/cwd/../ws-evil/secret.txt`,
      '/sys/kernel',
    ]) {
      for (const action of ['read', 'open', 'list_dir']) await refused(action, p, ['outside_workspace']);
    }
  });

  it('refuses sockets and FIFOs at once, for reading, opening and listing', async () => {
    server = createServer();
    await new Promise<void>((done) => server?.listen(ws.path('sock.html'), done));
    execFileSync('mkfifo', [ws.path('fifo.txt')]);
    for (const p of ['sock.html', 'fifo.txt']) {
      await refused('read', p, ['special_file']);
      await refused('list_dir', p, ['special_file', 'not_a_directory']);
    }
    await refused('open', 'sock.html', ['special_file']);
    const listing = (await call('list_dir', '.')) as { entries: string[]; skipped: Record<string, number> };
    expect(listing.entries).not.toContain('sock.html');
    expect(listing.entries).not.toContain('fifo.txt');
    expect(listing.skipped.special).toBe(2);
  });

  it('refuses links of every shape, including in the middle of a path', async () => {
    symlinkSync(join(ws.outside, 'secret.txt'), ws.path('final.txt'));
    symlinkSync('final.txt', ws.path('chain1.txt'));
    symlinkSync('chain1.txt', ws.path('chain2.txt'));
    symlinkSync(ws.outside, ws.path('c1'));
    symlinkSync('c1', ws.path('c2'));
    symlinkSync(join(ws.outside, 'gone'), ws.path('dangling'));
    symlinkSync('self', ws.path('self'));
    symlinkSync('/proc/self/root/etc', ws.path('etc'));
    symlinkSync(ws.path('.env'), ws.path('env-link.txt'));
    for (const p of ['final.txt', 'chain2.txt', 'dangling', 'self', 'env-link.txt', 'etc'])
      await refused('read', p, ['symlink_rejected']);
    for (const p of ['c2/secret.txt', 'etc/passwd']) await refused('read', p, ['outside_workspace']);
    for (const p of ['dangling/x.txt', 'self/x.txt']) await refused('read', p, ['symlink_rejected']);
    for (const p of ['c2', 'c2/', 'etc/']) await refused('list_dir', p, ['symlink_rejected', 'outside_workspace']);
    await refused('open', 'c2/secret.html', ['outside_workspace']);
    const listing = (await call('list_dir', '.', { recursive: true })) as { entries: string[] };
    expect(listing.entries.some((e) => /final|chain|^c\d|dangling|self|etc|env-link/.test(e))).toBe(false);
  });

  it('refuses protected names in any component, on the requested and on the real path', async () => {
    ws.write('.env.d/inner.txt', 'nested\n');
    ws.write('certs.pem/readme.txt', 'inside a protected-looking dir\n');
    ws.write('.env.example', 'API_TOKEN=\n');
    symlinkSync(ws.path('.env.d'), ws.path('cfg'));
    for (const p of [
      '.env',
      '.ENV',
      '.Env.Local',
      '.env.',
      '.env ',
      '.env...',
      'keys/id_ed25519',
      'keys/ID_ED25519',
      '.env.d/inner.txt',
      'cfg/inner.txt',
      'certs.pem/readme.txt',
      `${ws.root}/.env`,
      'keys/../.env',
    ]) {
      await refused('read', p, ['protected_path']);
    }
    await refused('list_dir', '.env.d', ['protected_path']);
    await refused('list_dir', 'cfg', ['symlink_rejected']);
    await refused('list_dir', 'cfg/', ['symlink_rejected']);
    await refused('open', '.env.html', ['protected_path']);
    expect(await call('read', '.env.example')).toMatchObject({ success: true });
    const listing = (await call('list_dir', '.', { recursive: true })) as unknown as {
      entries: string[];
      skipped: { protected: number };
    };
    expect(listing.entries).toContain('.env.example');
    expect(listing.entries.some((e) => /^\.env($|\/|\.d)|id_ed25519|certs\.pem/i.test(e))).toBe(false);
    expect(listing.skipped.protected).toBeGreaterThanOrEqual(3);
    noLeak(listing, 'listing');
  });

  it('handles Unicode, control and look-alike characters in names without confusing them', async () => {
    const names = [
      'café.txt',
      'cafe\u0301.txt',
      'a\nb.txt',
      'tab\there.txt',
      'rtl\u202etxt.sh',
      '.ｅｎｖ',
      '日本語/ファイル.md',
    ];
    for (const [i, name] of names.entries()) ws.write(name, `body ${i}\n`);
    for (const [i, name] of names.entries()) {
      const out = await call('read', name);
      expect(out, JSON.stringify(name)).toMatchObject({ success: true, content: `1\tbody ${i}` });
    }
    expect(await call('read', 'cafe\u0301.txt')).not.toEqual(await call('read', 'café.txt'));
    const listing = (await call('list_dir', '.', { recursive: true })) as { entries: string[] };
    for (const name of names) expect(listing.entries).toContain(name);
  });

  it('never returns outside bytes while a file flips between real and a link to the outside', async () => {
    await startRacer(ws.path('flip.txt'), join(ws.outside, 'secret.txt'), 'file');
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const out = (await call('read', 'flip.txt')) as { success: boolean; content?: string; error_code?: string };
      noLeak(out, `read #${i}`);
      if (out.success)
        expect(['1\tinside', '']).toContain(out.content); // '' = caught mid-rewrite
      else seen.add(out.error_code ?? '?');
    }
    for (const code of seen) {
      expect(['symlink_rejected', 'not_found', 'changed_during_check', 'io_error']).toContain(code);
    }
  });

  it('never lists or reads the outside while a directory flips between real and a link', async () => {
    await startRacer(ws.path('dir'), ws.outside, 'dir');
    for (let i = 0; i < 200; i++) {
      noLeak(await call('read', 'dir/x.txt'), `read #${i}`);
      noLeak(await call('read', 'dir/secret.txt'), `read #${i}`);
      const listing = (await call('list_dir', 'dir')) as { success: boolean; entries?: string[] };
      if (listing.success) expect(listing.entries?.includes('dir/secret.txt')).toBe(false);
    }
  });

  it('reads a hard link to an outside file only as the documented limit, and never changes the outside', async () => {
    // Hard links cannot be told apart from ordinary files; SECURITY.md lists them as a read limit. Nothing may change.
    linkSync(join(ws.outside, 'secret.txt'), ws.path('hard.txt'));
    const out = await call('read', 'hard.txt');
    expect(out).toMatchObject({ success: true });
  });

  it('keeps the tool usable after a burst of refusals, through the tool object', async () => {
    const tool = createReaderTool({ workspaceRoot: ws.root });
    const ctx = { signal: new AbortController().signal, callId: 't' };
    for (const p of ['/etc/passwd', '.env', '../ws-evil/secret.txt', '\0', 'nope']) {
      noLeak(await tool.handler({ action: 'read', path: p } as never, ctx), p);
    }
    expect(await tool.handler({ action: 'read', path: 'ok.txt' }, ctx)).toMatchObject({ success: true });
  });

  it('list_dir on a deep tree stops at the walk bound and says so', async () => {
    let dir = 'd';
    for (let i = 0; i < 30; i++) {
      mkdirSync(ws.path(dir), { recursive: true });
      ws.write(`${dir}/f.txt`, '');
      dir += '/d';
    }
    const out = (await handleReader(
      { action: 'list_dir', path: '.', recursive: true },
      { workspaceRoot: ws.root, limits: { maxWalkEntries: 10 } },
    )) as { success: boolean; truncated: boolean };
    expect(out).toMatchObject({ success: true, truncated: true });
  });
});
