import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';
import type { EditorInput } from './schema.js';

const CANARY = 'OUTSIDE-SECRET-CANARY\n';

/** A real workspace whose methods can be wrapped to stage a race at an exact moment. */
function racingWorkspace(real: Workspace, overrides: Partial<Workspace>): Workspace {
  return {
    root: real.root,
    limits: real.limits,
    resolve: real.resolve.bind(real),
    relative: real.relative.bind(real),
    isProtected: real.isProtected.bind(real),
    openRead: real.openRead.bind(real),
    openOrLoad: real.openOrLoad.bind(real),
    writeFile: real.writeFile.bind(real),
    mkdir: real.mkdir.bind(real),
    walk: real.walk.bind(real),
    ...overrides,
  } as unknown as Workspace;
}

describe('editor adversarial paths', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'ok.txt': 'fine\n' });
  });
  afterEach(() => ws.cleanup());
  const call = (req: Record<string, unknown>) => handleEditor(req as EditorInput, { workspaceRoot: ws.root });
  const write = (file_path: string, content = 'pwned') => call({ action: 'write', file_path, content });
  const edit = (file_path: string) => call({ action: 'edit', file_path, old_string: 'OUTSIDE', new_string: 'pwned' });
  const outsideIntact = () => {
    expect(readFileSync(join(ws.outside, 'secret.txt'), 'utf8')).toBe(CANARY);
    expect(existsSync(join(ws.outside, 'new.txt'))).toBe(false);
  };
  const code = async (p: Promise<unknown>) => ((await p) as { error_code?: string }).error_code;

  it('refuses lexical traversal and prefix confusion', async () => {
    for (const p of [
      '../ws-evil/secret.txt',
      'a/../../ws-evil/new.txt',
      `${ws.root}-evil/new.txt`,
      `${ws.root}/../ws-evil/new.txt`,
    ]) {
      expect(await code(write(p)), p).toBe('outside_workspace');
      expect(await code(edit(p)), p).toBe('outside_workspace');
    }
    outsideIntact();
  });

  it('refuses a symlinked final component, whatever it points at, and leaves the link alone', async () => {
    symlinkSync(join(ws.outside, 'secret.txt'), ws.path('link.txt'));
    symlinkSync(ws.path('ok.txt'), ws.path('inner-link.txt'));
    symlinkSync(join(ws.outside, 'missing.txt'), ws.path('dangling.txt'));
    for (const p of ['link.txt', 'inner-link.txt', 'dangling.txt']) {
      expect(await code(write(p)), p).toBe('symlink_rejected');
      expect(await code(edit(p)), p).toBe('symlink_rejected');
      expect(lstatSync(ws.path(p)).isSymbolicLink()).toBe(true);
    }
    expect(existsSync(join(ws.outside, 'missing.txt'))).toBe(false);
    outsideIntact();
  });

  it('refuses an intermediate directory link that leaves the workspace', async () => {
    symlinkSync(ws.outside, ws.path('out'));
    expect(await code(write('out/new.txt'))).toBe('outside_workspace');
    expect(await code(edit('out/secret.txt'))).toBe('outside_workspace');
    expect(await code(write('out/deeper/new.txt'))).toBe('outside_workspace');
    expect(existsSync(join(ws.outside, 'deeper'))).toBe(false);
    outsideIntact();
  });

  it('refuses protected names, including case and trailing-dot tricks, without reading them', async () => {
    ws.write('.env', 'TOKEN=abc\n');
    for (const p of [
      '.env',
      '.ENV',
      '.env.local',
      'conf/.Env.production',
      'id_rsa',
      'keys/server.PEM',
      '.npmrc',
      '.env.',
      '.env ',
    ]) {
      const out = await write(p, 'x');
      expect((out as { error_code: string }).error_code, p).toBe('protected_path');
    }
    const out = await call({ action: 'edit', file_path: '.env', old_string: 'TOKEN', new_string: 'X' });
    expect(out).toMatchObject({ error_code: 'protected_path' });
    expect(JSON.stringify(out)).not.toContain('abc');
    expect(readFileSync(ws.path('.env'), 'utf8')).toBe('TOKEN=abc\n');
    expect(await write('.env.example', 'A=1\n')).toMatchObject({ success: true });
  });

  it('refuses writes into .git, including hooks that would run later', async () => {
    mkdirSync(ws.path('.git/hooks'), { recursive: true });
    writeFileSync(ws.path('.git/config'), '[core]\n');
    expect((await write('.git/hooks/pre-commit', '#!/bin/sh\ncurl evil\n')) as object).toMatchObject({
      success: false,
    });
    expect(
      (await call({ action: 'edit', file_path: '.git/config', old_string: '[core]', new_string: '[x]' })) as object,
    ).toMatchObject({
      success: false,
    });
    expect(existsSync(ws.path('.git/hooks/pre-commit'))).toBe(false);
    expect(readFileSync(ws.path('.git/config'), 'utf8')).toBe('[core]\n');
  });

  it('never modifies the outside inode of a hard link', async () => {
    const target = join(ws.outside, 'hard.txt');
    writeFileSync(target, 'OUTSIDE original\n');
    linkSync(target, ws.path('hard.txt'));
    await write('hard.txt', 'replaced\n');
    expect(readFileSync(target, 'utf8')).toBe('OUTSIDE original\n');
    rmSync(ws.path('hard.txt'));
    linkSync(target, ws.path('hard.txt'));
    await edit('hard.txt');
    expect(readFileSync(target, 'utf8')).toBe('OUTSIDE original\n');
  });

  it('refuses a FIFO target without hanging', async () => {
    execFileSync('mkfifo', [ws.path('pipe')]);
    expect(await code(write('pipe'))).toBe('special_file');
    expect(await code(edit('pipe'))).toBe('special_file');
    expect(lstatSync(ws.path('pipe')).isFIFO()).toBe(true);
  });

  it('refuses pseudo-filesystem and device paths', async () => {
    for (const p of ['/proc/self/environ', '/etc/passwd', '/dev/null', '/proc/self/cwd/ok.txt']) {
      expect((await write(p)) as object, p).toMatchObject({ success: false });
      expect((await edit(p)) as object, p).toMatchObject({ success: false });
    }
  });

  it('rejects NUL bytes and empty names as invalid paths', async () => {
    expect((await write('ok.txt\0.sh')) as object).toMatchObject({ success: false });
    expect((await write('')) as object).toMatchObject({ error_code: 'invalid_request' });
  });

  it('does not write outside when the file is swapped for a link at the moment of writing', async () => {
    const real = await Workspace.open(ws.root);
    const racing = racingWorkspace(real, {
      writeFile: async (path, data, options) => {
        rmSync(ws.path('ok.txt'));
        symlinkSync(join(ws.outside, 'secret.txt'), ws.path('ok.txt'));
        return real.writeFile(path, data, options);
      },
    });
    const out = await handleEditor(
      { action: 'edit', file_path: 'ok.txt', old_string: 'fine', new_string: 'pwned' },
      { workspaceRoot: ws.root, workspace: racing },
    );
    expect(out).toMatchObject({ success: false });
    expect(lstatSync(ws.path('ok.txt')).isSymbolicLink()).toBe(true);
    outsideIntact();
  });

  it('notices a file changed between reading and writing and writes nothing', async () => {
    const real = await Workspace.open(ws.root);
    let opens = 0;
    const racing = racingWorkspace(real, {
      openRead: async (path, options) => {
        if (++opens === 2) writeFileSync(ws.path('ok.txt'), 'someone else wrote this, longer\n');
        return real.openRead(path, options);
      },
      openOrLoad: async (path, options) => {
        if (++opens === 2) writeFileSync(ws.path('ok.txt'), 'someone else wrote this, longer\n');
        return real.openOrLoad(path, options);
      },
    });
    const out = await handleEditor(
      { action: 'edit', file_path: 'ok.txt', old_string: 'fine', new_string: 'mine' },
      { workspaceRoot: ws.root, workspace: racing },
    );
    expect(out).toMatchObject({ error_code: 'file_changed' });
    expect(readFileSync(ws.path('ok.txt'), 'utf8')).toBe('someone else wrote this, longer\n');
  });

  it('keeps working after a string of refusals', async () => {
    await write('../x');
    await edit('/etc/passwd');
    expect(await call({ action: 'edit', file_path: 'ok.txt', old_string: 'fine', new_string: 'great' })).toMatchObject({
      success: true,
    });
  });
});
