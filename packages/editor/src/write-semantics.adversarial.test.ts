import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';
import type { EditorInput } from './schema.js';

const SECRETS = ['OUTSIDE-SECRET-CANARY', 'hunter2'];

const RACER = `
const fs = require('node:fs');
const [target, linkTo, kind] = process.argv.slice(-3);
process.stdout.write('ready\\n');
for (;;) {
  try { fs.rmSync(target, { recursive: true, force: true }); } catch {}
  try { fs.symlinkSync(linkTo, target); } catch {}
  try { fs.rmSync(target, { recursive: true, force: true }); } catch {}
  try {
    if (kind === 'dir') fs.mkdirSync(target);
    else fs.writeFileSync(target, 'inside\\n');
  } catch {}
}`;

type Out = { success: boolean; error_code?: string; error?: string; created?: boolean };

describe('editor write semantics under attack', () => {
  let ws: TempWorkspace;
  let before: string;
  let racer: ChildProcess | undefined;
  let server: Server | undefined;
  beforeEach(() => {
    ws = makeWorkspace({ 'ok.txt': 'fine\n', '.env': 'API_TOKEN=hunter2\n' });
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
    expect(readFileSync(ws.path('.env'), 'utf8')).toBe('API_TOKEN=hunter2\n');
    // no temp file of ours is ever left behind, anywhere in the workspace
    const leftovers = (readdirSync(ws.root, { recursive: true }) as string[]).filter((n) =>
      /\.bk-[0-9a-f]+\.tmp$/.test(n),
    );
    expect(leftovers).toEqual([]);
    // and the editor still works
    expect(await call({ action: 'edit', file_path: 'ok.txt', old_string: 'fine', new_string: 'fine' })).toMatchObject({
      error_code: 'no_change',
    });
    ws.cleanup();
  });
  // Limits that send every edit, whatever its size, down the streamed path.
  const STREAM = { streamEditMinBytes: 0, verifyBytesMax: 0, streamChunkBytes: 1 };
  const call = async (req: Record<string, unknown>, streamed = false) => {
    const out = (await handleEditor(req as EditorInput, {
      workspaceRoot: ws.root,
      ...(streamed ? { limits: STREAM } : {}),
    })) as Out;
    const text = JSON.stringify(out);
    for (const secret of SECRETS) expect(text, JSON.stringify(req)).not.toContain(secret);
    return out;
  };
  const write = (file_path: string, content = 'pwned\n') => call({ action: 'write', file_path, content });
  const edit = (file_path: string, old_string = 'fine', new_string = 'pwned') =>
    call({ action: 'edit', file_path, old_string, new_string });
  const startRacer = async (target: string, linkTo: string, kind: 'file' | 'dir') => {
    racer = spawn(process.execPath, ['-e', RACER, target, linkTo, kind], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((done) => racer?.stdout?.once('data', () => done()));
  };

  it('creates parents only through real directories inside; never through links that leave or dangle', async () => {
    mkdirSync(ws.path('real'));
    symlinkSync(ws.path('real'), ws.path('alias'));
    symlinkSync(ws.outside, ws.path('out'));
    symlinkSync('out', ws.path('out2'));
    symlinkSync(join(ws.outside, 'made-by-editor'), ws.path('dangling'));
    symlinkSync('loop', ws.path('loop'));
    expect(await write('alias/new/deep.txt', 'x\n')).toMatchObject({ success: true, created: true });
    expect(readFileSync(ws.path('real/new/deep.txt'), 'utf8')).toBe('x\n');
    for (const p of ['out/a/b.txt', 'out2/a.txt', 'out/secret.txt']) {
      expect((await write(p)).error_code, p).toBe('outside_workspace');
    }
    for (const p of ['dangling/a.txt', 'dangling/x/y.txt', 'loop/a.txt']) {
      expect((await write(p)).error_code, p).toBe('symlink_rejected');
    }
    expect((await write('ok.txt/child.txt')).error_code).toBe('not_a_directory');
    expect((await write('newdir/')).error_code).toBe('not_a_file');
  });

  it('refuses every spelling of .git and any directory git would treat as a repository', async () => {
    mkdirSync(ws.path('.git/hooks'), { recursive: true });
    writeFileSync(ws.path('.git/HEAD'), 'ref: refs/heads/main\n');
    mkdirSync(ws.path('.git/objects'));
    mkdirSync(ws.path('vendor/lib'), { recursive: true });
    writeFileSync(ws.path('vendor/lib/.git'), 'gitdir: ../../.git/modules/lib\n');
    mkdirSync(ws.path('mirror.git/objects'), { recursive: true });
    writeFileSync(ws.path('mirror.git/HEAD'), 'ref: refs/heads/main\n');
    symlinkSync(ws.path('.git'), ws.path('gitlink'));
    for (const p of [
      '.git/hooks/pre-commit',
      '.GIT/hooks/pre-commit',
      '.git./hooks/post-checkout',
      '.git /config',
      './sub/../.git/config',
      'vendor/lib/.git',
      'new/.git/hooks/pre-commit',
      '.git',
      'mirror.git/hooks/post-merge',
      'mirror.git/config',
      'gitlink/hooks/pre-push',
    ]) {
      const out = await write(p, '#!/bin/sh\necho owned\n');
      expect(out.success, p).toBe(false);
      expect(['protected_path', 'symlink_rejected', 'outside_workspace'], `${p} → ${out.error_code}`).toContain(
        out.error_code,
      );
    }
    expect(readdirSync(ws.path('.git/hooks'))).toEqual([]);
    expect(readFileSync(ws.path('vendor/lib/.git'), 'utf8')).toBe('gitdir: ../../.git/modules/lib\n');
    expect((await edit('vendor/lib/.git', 'gitdir', 'x')).error_code).toBe('protected_path');
    // ordinary files named like git's are fine outside a repository directory
    expect(await write('docs/HEAD', 'not a repo\n')).toMatchObject({ success: true });
    expect(await write('.gitignore', 'dist/\n')).toMatchObject({ success: true });
  });

  it('keeps the mode of the file it replaces, for write and edit, and gives a new file ordinary permissions', async () => {
    ws.write('run.sh', '#!/bin/sh\necho fine\n');
    chmodSync(ws.path('run.sh'), 0o750);
    ws.write('private.txt', 'fine\n');
    chmodSync(ws.path('private.txt'), 0o600);
    expect(await edit('run.sh')).toMatchObject({ success: true });
    expect(statSync(ws.path('run.sh')).mode & 0o7777).toBe(0o750);
    expect(await write('private.txt', 'other\n')).toMatchObject({ success: true, created: false });
    expect(statSync(ws.path('private.txt')).mode & 0o7777).toBe(0o600);
    expect(await write('brand-new.txt', 'x\n')).toMatchObject({ success: true, created: true });
    expect(statSync(ws.path('brand-new.txt')).mode & 0o111).toBe(0);
  });

  it('never writes through a hard link: the other name keeps its bytes, even for a protected file', async () => {
    linkSync(join(ws.outside, 'secret.txt'), ws.path('hard-out.txt'));
    linkSync(ws.path('.env'), ws.path('hard-env.txt'));
    expect(await write('hard-out.txt', 'replaced\n')).toMatchObject({ success: true, created: false });
    expect(await write('hard-env.txt', 'replaced\n')).toMatchObject({ success: true, created: false });
    expect(readFileSync(ws.path('hard-out.txt'), 'utf8')).toBe('replaced\n');
    expect(statSync(ws.path('hard-out.txt')).nlink).toBe(1);
    // snapshot of the outside and .env are checked after the test
  });

  it('leaves a file byte-identical when decoding fails part-way through, whatever came before', async () => {
    const latin = Buffer.concat([Buffer.from('fine line\n'.repeat(1000)), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])]);
    ws.write('latin.txt', latin);
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('fine\n', 'utf16le'), Buffer.from([0x00, 0xd8])]);
    ws.write('lone.txt', le);
    const odd = Buffer.concat([
      Buffer.from([0xfe, 0xff]),
      Buffer.from('fine', 'utf16le').swap16(),
      Buffer.from([0x41]),
    ]);
    ws.write('odd.txt', odd);
    const overlong = Buffer.concat([Buffer.from('fine '), Buffer.from([0xc0, 0xaf]), Buffer.from('\n')]);
    ws.write('overlong.txt', overlong);
    const surrogate = Buffer.concat([Buffer.from('fine '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('\n')]);
    ws.write('cesu.txt', surrogate);
    const files: Array<[string, Buffer]> = [
      ['latin.txt', latin],
      ['lone.txt', le],
      ['odd.txt', odd],
      ['overlong.txt', overlong],
      ['cesu.txt', surrogate],
    ];
    for (const [name, bytes] of files) {
      const mtime = statSync(ws.path(name)).mtimeMs;
      const out = await call({
        action: 'edit',
        file_path: name,
        old_string: 'fine',
        new_string: 'FINE',
        replace_all: true,
      });
      expect(out, name).toMatchObject({ success: false, error_code: 'unsupported_encoding' });
      expect(readFileSync(ws.path(name)).equals(bytes), name).toBe(true);
      expect(statSync(ws.path(name)).mtimeMs, name).toBe(mtime);
    }
  });

  it('refuses sockets and FIFOs as targets at once, without replacing them', async () => {
    server = createServer();
    await new Promise<void>((done) => server?.listen(ws.path('sock'), done));
    execFileSync('mkfifo', [ws.path('fifo')]);
    for (const p of ['sock', 'fifo']) {
      expect((await write(p)).error_code, p).toBe('special_file');
      expect((await edit(p)).error_code, p).toBe('special_file');
    }
    expect(statSync(ws.path('fifo')).isFIFO()).toBe(true);
    expect(statSync(ws.path('sock')).isSocket()).toBe(true);
  });

  it('treats encoded traversal literally and Unicode names exactly', async () => {
    expect(await write('%2e%2e/ws-evil/new.txt', 'x\n')).toMatchObject({ success: true });
    expect(readFileSync(ws.path('%2e%2e/ws-evil/new.txt'), 'utf8')).toBe('x\n');
    expect(await write('..\\ws-evil\\new.txt', 'y\n')).toMatchObject({ success: true });
    for (const name of ['café.txt', 'cafe\u0301.txt', 'rtl\u202etxt.sh', '.ｅｎｖ']) {
      expect(await write(name, `${name}\n`), name).toMatchObject({ success: true, created: true });
    }
    expect(readFileSync(ws.path('café.txt'), 'utf8')).toBe('café.txt\n');
    expect(readFileSync(ws.path('cafe\u0301.txt'), 'utf8')).toBe('cafe\u0301.txt\n');
    for (const p of ['.Env', '.env.Production', 'ID_RSA', 'deploy.PEM', '.env\u0020', 'a/.npmrc', '.npmrc/x']) {
      expect((await write(p)).error_code, p).toBe('protected_path');
    }
  });

  it('never writes outside while the target flips between a file and a link to the outside', async () => {
    await startRacer(ws.path('flip.txt'), join(ws.outside, 'secret.txt'), 'file');
    for (let i = 0; i < 150; i++) {
      await write('flip.txt', `mine ${i}\n`);
      await edit('flip.txt', 'inside', 'edited');
    }
  });

  it('streamed edits never read or write outside while the target flips between a file and a link', async () => {
    await startRacer(ws.path('flip.txt'), join(ws.outside, 'secret.txt'), 'file');
    for (let i = 0; i < 150; i++) {
      await call({ action: 'edit', file_path: 'flip.txt', old_string: 'inside', new_string: 'edited' }, true);
      const leak = await call({ action: 'edit', file_path: 'flip.txt', old_string: 'OUTSIDE', new_string: 'x' }, true);
      expect(leak.success).toBe(false);
    }
  });

  it('never creates anything outside while a parent flips between a directory and a link to the outside', async () => {
    await startRacer(ws.path('par'), ws.outside, 'dir');
    for (let i = 0; i < 150; i++) {
      await write(`par/new-${i}.txt`, 'x\n');
      await write(`par/sub-${i}/new.txt`, 'x\n');
    }
  });
});
