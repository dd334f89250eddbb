import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleReader } from './index.js';
import type { ReaderInput } from './schema.js';

describe('reader adversarial paths', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'ok.txt': 'fine\n', '.env': 'API_TOKEN=hunter2\n', 'keys/Server.PEM': 'PRIVATE\n' });
  });
  afterEach(() => ws.cleanup());
  const call = (action: string, path: string) =>
    handleReader({ action, path } as ReaderInput, { workspaceRoot: ws.root });
  const refusedWithoutLeak = async (action: string, path: string, code?: string) => {
    const out = await call(action, path);
    expect(out.success, `${action} ${path}`).toBe(false);
    if (code) expect((out as { error_code: string }).error_code, `${action} ${path}`).toBe(code);
    const text = JSON.stringify(out);
    for (const secret of ['OUTSIDE-SECRET-CANARY', 'hunter2', 'PRIVATE', 'root:x:0'])
      expect(text).not.toContain(secret);
    return out;
  };

  it('refuses traversal, prefix confusion and absolute paths outside', async () => {
    for (const p of [
      '../ws-evil/secret.txt',
      'a/../../ws-evil/secret.txt',
      `${ws.root}-evil/secret.txt`,
      `${ws.outside}/secret.txt`,
      '/etc/passwd',
    ]) {
      await refusedWithoutLeak('read', p, 'outside_workspace');
    }
  });

  it('refuses pseudo-filesystem and device paths', async () => {
    for (const p of [
      '/proc/self/environ',
      '/proc/self/cwd/ok.txt',
      '/proc/self/root/etc/passwd',
      '/dev/zero',
      '/dev/stdin',
    ]) {
      await refusedWithoutLeak('read', p);
      await refusedWithoutLeak('open', `${p}.html`);
    }
  });

  it('refuses links: final, dangling, loops, chains and intermediate links that leave', async () => {
    symlinkSync(join(ws.outside, 'secret.txt'), ws.path('final.txt'));
    symlinkSync(ws.path('ok.txt'), ws.path('inside-link.txt'));
    symlinkSync(join(ws.outside, 'nope'), ws.path('dangling.txt'));
    symlinkSync(ws.path('loop2'), ws.path('loop1'));
    symlinkSync(ws.path('loop1'), ws.path('loop2'));
    symlinkSync(ws.path('final.txt'), ws.path('chain.txt'));
    symlinkSync(ws.outside, ws.path('outdir'));
    for (const p of ['final.txt', 'inside-link.txt', 'dangling.txt', 'chain.txt'])
      await refusedWithoutLeak('read', p, 'symlink_rejected');
    await refusedWithoutLeak('read', 'loop1');
    await refusedWithoutLeak('read', 'outdir/secret.txt', 'outside_workspace');
    await refusedWithoutLeak('list_dir', 'outdir');
    await refusedWithoutLeak('open', 'outdir/secret.html');
  });

  it('follows an intermediate directory link that stays inside', async () => {
    mkdirSync(ws.path('real'));
    ws.write('real/in.txt', 'inside\n');
    symlinkSync(ws.path('real'), ws.path('alias'));
    expect(await call('read', 'alias/in.txt')).toMatchObject({
      success: true,
      content: '1\tinside',
      relative: 'real/in.txt',
    });
  });

  it('refuses protected names, including case and trailing tricks', async () => {
    for (const p of ['.env', '.ENV', './.env', 'keys/Server.PEM', 'keys/server.pem', '.env.']) {
      await refusedWithoutLeak('read', p, 'protected_path');
    }
  });

  it('does not hang on a FIFO and refuses it as special', async () => {
    execFileSync('mkfifo', [ws.path('pipe')]);
    await refusedWithoutLeak('read', 'pipe', 'special_file');
    execFileSync('mkfifo', [ws.path('pipe.html')]);
    await refusedWithoutLeak('open', 'pipe.html', 'special_file');
  });

  it('rejects NUL bytes in paths and keeps working afterwards', async () => {
    await refusedWithoutLeak('read', 'ok.txt\0../../etc/passwd');
    expect(await call('read', 'ok.txt')).toMatchObject({ success: true });
  });
});
