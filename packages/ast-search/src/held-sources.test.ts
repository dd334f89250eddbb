import { readFileSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReadKit, readKit, readSource } from './internal/source-files.js';

const CANARY = 'OUTSIDE-HELD-SOURCES-CANARY';

describe('sources opened in their gated, held parent directory', () => {
  let ws: TempWorkspace;
  let workspace: Workspace;
  let kit: ReadKit;
  beforeEach(async () => {
    ws = makeWorkspace({ 'src/ok.py': 'x = 1\n', 'src/.env.py': 'y = 2\n', 'top.py': 'z = 3\n' });
    ws.write('../ws-held-evil/ok.py', `print("${CANARY}")\n`);
    workspace = await Workspace.open(ws.root);
    kit = readKit(workspace);
  });
  afterEach(() => {
    kit.dirs.close();
    ws.cleanup();
  });

  const read = (relative: string) =>
    readSource(workspace, { path: join(workspace.root, relative), relative }, 1 << 20, 'python', undefined, kit);

  it('reads plain files in and below the root at their real path', async () => {
    expect(await read('src/ok.py')).toMatchObject({
      ok: true,
      text: 'x = 1\n',
      path: join(workspace.root, 'src/ok.py'),
    });
    expect(await read('top.py')).toMatchObject({ ok: true, text: 'z = 3\n', path: join(workspace.root, 'top.py') });
  });

  it('never reads a protected name or a link to outside', async () => {
    symlinkSync(join(ws.root, '..', 'ws-held-evil', 'ok.py'), join(ws.root, 'src', 'link.py'));
    for (const relative of ['src/.env.py', 'src/link.py']) {
      const got = await read(relative);
      expect(got.ok, relative).toBe(false);
      expect(JSON.stringify(got)).not.toContain(CANARY);
    }
  });

  it('refuses a file once its listed directory became a link to outside', async () => {
    renameSync(join(ws.root, 'src'), join(ws.root, 'src-moved'));
    symlinkSync(join(ws.root, '..', 'ws-held-evil'), join(ws.root, 'src'));
    expect(readFileSync(join(ws.root, 'src', 'ok.py'), 'utf8')).toContain(CANARY);
    const got = await read('src/ok.py');
    expect(got.ok).toBe(false);
    expect(JSON.stringify(got)).not.toContain(CANARY);
  });

  it('still reads through the gate once the held directories are closed', async () => {
    kit.dirs.close();
    expect(await read('src/ok.py')).toMatchObject({ ok: true, text: 'x = 1\n' });
  });
});
