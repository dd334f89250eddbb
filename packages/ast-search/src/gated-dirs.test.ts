import { closeSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatedDirs } from './internal/gated-dirs.js';
import { readSource } from './internal/source-files.js';

const CANARY = 'OUTSIDE-GATED-DIRS-CANARY';

describe('files opened in their gated parent directory', () => {
  let ws: TempWorkspace;
  let workspace: Workspace;
  let dirs: GatedDirs;
  beforeEach(async () => {
    ws = makeWorkspace({ 'src/ok.py': 'x = 1\n', 'src/.env.py': 'y = 2\n', 'top.py': 'z = 3\n' });
    ws.write('../ws-gated-evil/ok.py', `print("${CANARY}")\n`);
    workspace = await Workspace.open(ws.root);
    dirs = new GatedDirs(workspace);
  });
  afterEach(() => {
    dirs.close();
    ws.cleanup();
  });

  const textOf = (relative: string) => {
    return async () => {
      const opened = await dirs.open(relative, 1 << 20);
      if (!opened) return undefined;
      try {
        return { path: opened.path, text: readFileSync(opened.fd, 'utf8') };
      } finally {
        closeSync(opened.fd);
      }
    };
  };

  it.runIf(process.platform === 'linux')('opens plain files in and below the root at their real path', async () => {
    expect(await textOf('src/ok.py')()).toEqual({ path: join(workspace.root, 'src', 'ok.py'), text: 'x = 1\n' });
    expect(await textOf('top.py')()).toEqual({ path: join(workspace.root, 'top.py'), text: 'z = 3\n' });
  });

  it('never opens a protected name, a link or a non-plain path', async () => {
    symlinkSync(join(ws.root, 'top.py'), join(ws.root, 'src', 'link.py'));
    for (const relative of ['src/.env.py', 'src/link.py', '../ws-gated-evil/ok.py', 'src/../top.py', 'src\\ok.py']) {
      expect(await textOf(relative)()).toBeUndefined();
    }
  });

  it('declines once a listed directory became a link to outside, and readSource then refuses it', async () => {
    const file = { path: join(workspace.root, 'src', 'ok.py'), relative: 'src/ok.py' };
    renameSync(join(ws.root, 'src'), join(ws.root, 'src-moved'));
    symlinkSync(join(ws.root, '..', 'ws-gated-evil'), join(ws.root, 'src'));
    expect(readFileSync(join(ws.root, 'src', 'ok.py'), 'utf8')).toContain(CANARY);
    expect(await textOf('src/ok.py')()).toBeUndefined();
    const read = await readSource(workspace, file, 1 << 20, 'python', undefined, { dirs, scratch: Buffer.alloc(64) });
    expect(read.ok).toBe(false);
    expect(JSON.stringify(read)).not.toContain(CANARY);
  });

  it('declines every open once closed', async () => {
    dirs.close();
    expect(await textOf('src/ok.py')()).toBeUndefined();
  });
});
