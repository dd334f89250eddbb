import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initRepo, makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CheckpointStore, createCheckpointStore } from './index.js';
import { bash, files } from './test-helpers.js';

let ws: TempWorkspace;
let store: CheckpointStore;
beforeEach(() => {
  ws = makeWorkspace({
    'a.txt': 'alpha\n',
    'b.txt': 'beta\n',
    'c.txt': 'gamma\n',
    'crlf.txt': 'one\r\ntwo\r\n',
    'src/keep.ts': 'export const x = 1;\n',
    '.gitignore': 'build/\n*.log\n',
    '.gitattributes': '* text=auto eol=lf\n*.txt filter=evil ident\n',
    'build/out.js': 'built\n',
    'app.log': 'log line\n',
    '.env': 'TOKEN=secret\n',
  });
  ws.write('tool.sh', '#!/bin/sh\necho hi\n', 0o644);
  ws.write('data.bin', Buffer.from([0, 1, 2, 254, 255, 13, 10, 0]));
  initRepo(ws.root);
  ws.write('.git/hooks/pre-commit', '#!/bin/sh\ntouch "$GIT_DIR/../HOOK-RAN"\n', 0o755);
  ws.write('.git/hooks/post-index-change', '#!/bin/sh\ntouch "$GIT_DIR/../HOOK-RAN"\n', 0o755);
  store = createCheckpointStore({ root: ws.root, storeDir: join(ws.base, 'store') });
});
afterEach(() => ws.cleanup());

describe('restore after real commands', () => {
  it('a python3 edit/create/delete/rename and a chmod +x are undone byte for byte and mode for mode', async () => {
    const userGit = snapshotTree(ws.path('.git'));
    const outside = snapshotTree(ws.outside);
    const start = files(ws.root);
    const calls = [
      "python3 -c \"import os; open('a.txt','a').write('more\\n'); os.remove('b.txt'); os.rename('c.txt','moved/c2.txt') if os.makedirs('moved') is None else 0\"",
      "python3 -c \"open('new/deep/n.txt','w').write('new\\n') if __import__('os').makedirs('new/deep') is None else 0; open('crlf.txt','wb').write(b'one\\ntwo\\n')\"",
      'chmod +x tool.sh',
      'mv data.bin data2.bin',
      "python3 -c \"open('app.log','a').write('x\\n'); open('build/out.js','w').write('rebuilt\\n'); open('.env','w').write('TOKEN=changed\\n')\"",
    ];
    const ids: string[] = [];
    for (const [index, command] of calls.entries()) {
      await store.record({ branch: 'main', callId: `call-${index}`, tool: 'bash', request: { command } }, () =>
        bash(ws.root, command),
      );
    }
    const listed = await store.list();
    if (!listed.success) throw new Error(listed.error);
    for (const entry of listed.checkpoints) ids.push(entry.call_id ?? '-');
    // The last call changed only ignored and protected files, so it left no checkpoint.
    expect(ids).toEqual(['call-3', 'call-2', 'call-1', 'call-0', '-']);
    expect(listed.checkpoints[3]).toMatchObject({ tool: 'bash', kind: 'after', branch: 'main' });
    expect(listed.checkpoints[3]!.files).toEqual(['a.txt', 'b.txt', 'c.txt', 'moved/c2.txt']);
    const after = files(ws.root);

    const undo = await store.restore({ to: listed.checkpoints[3]!.before! });
    expect(undo).toMatchObject({ success: true, overwritten: [] });
    const restored = files(ws.root);
    const untouched = (list: string[]) => list.filter((l) => !/^(app\.log|build\/out\.js|\.env) /u.test(l));
    expect(untouched(restored)).toEqual(untouched(start));
    // Ignored and protected files keep what the last command wrote: the store neither kept nor restored them.
    expect(readFileSync(ws.path('app.log'), 'utf8')).toBe('log line\nx\n');
    expect(readFileSync(ws.path('build/out.js'), 'utf8')).toBe('rebuilt\n');
    expect(readFileSync(ws.path('.env'), 'utf8')).toBe('TOKEN=changed\n');

    // Undo of the undo brings the commands' work back.
    if (!undo.success) throw new Error(undo.error);
    expect(await store.restore({ to: undo.before })).toMatchObject({ success: true });
    expect(files(ws.root)).toEqual(after);

    // The user's repository (index, refs, hooks, config) is byte for byte as before; no hook ran; nothing outside.
    expect(snapshotTree(ws.path('.git'))).toBe(userGit);
    expect(snapshotTree(ws.outside)).toBe(outside);
    expect(readFileSync(join(ws.base, 'store', 'git', 'config'), 'utf8')).toContain('hooksPath = /dev/null');
    expect(
      [ws.path('HOOK-RAN'), join(ws.base, 'HOOK-RAN'), join(ws.base, 'store', 'HOOK-RAN')].filter(existsSync),
    ).toEqual([]);
  });

  it('refuses to overwrite a change nobody recorded unless forced, and keeps that change in the history', async () => {
    await store.snapshot({ label: 'start' });
    await store.record({ callId: 'c1', tool: 'bash' }, () =>
      bash(ws.root, "python3 -c \"open('a.txt','w').write('by call\\n')\""),
    );
    const list = await store.list({ limit: 1 });
    if (!list.success) throw new Error(list.error);
    writeFileSync(ws.path('a.txt'), 'by the user\n');
    const before = files(ws.root);
    const refused = await store.restore({ to: list.checkpoints[0]!.before! });
    expect(refused).toMatchObject({ success: false, error_code: 'conflict', conflicts: ['a.txt'] });
    expect(files(ws.root)).toEqual(before);
    // A restore of other paths goes ahead.
    expect(await store.restore({ to: list.checkpoints[0]!.before!, paths: ['b.txt'] })).toMatchObject({
      success: true,
    });
    const forced = await store.restore({ to: list.checkpoints[0]!.before!, force: true });
    expect(forced).toMatchObject({ success: true, overwritten: ['a.txt'] });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('alpha\n');
    if (!forced.success) throw new Error(forced.error);
    expect(await store.restore({ to: forced.before })).toMatchObject({ success: true });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('by the user\n');
  });

  it('restores only the named paths', async () => {
    await store.snapshot();
    await store.record({ callId: 'c1' }, () =>
      bash(ws.root, "python3 -c \"open('a.txt','w').write('A'); open('src/keep.ts','w').write('K')\""),
    );
    const list = await store.list({ limit: 1 });
    if (!list.success) throw new Error(list.error);
    const out = await store.restore({ to: list.checkpoints[0]!.before!, paths: ['src'] });
    expect(out).toMatchObject({ success: true, changed_files: ['src/keep.ts'] });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('A');
    expect(readFileSync(ws.path('src/keep.ts'), 'utf8')).toBe('export const x = 1;\n');
    expect(await store.restore({ to: list.checkpoints[0]!.before!, paths: ['../x'] })).toMatchObject({
      error_code: 'invalid_path',
    });
    expect(await store.restore({ to: 'ffffffff' })).toMatchObject({ error_code: 'checkpoint_not_found' });
  });
});
