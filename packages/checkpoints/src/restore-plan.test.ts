import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CheckpointStore, createCheckpointStore } from './index.js';
import { files, gitRuns } from './test-helpers.js';

let ws: TempWorkspace;
let store: CheckpointStore;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'tool.sh': '#!/bin/sh\n' });
  store = createCheckpointStore({ root: ws.root, storeDir: join(ws.base, 'store') });
});
afterEach(() => ws.cleanup());

const call = (id: string, change: () => void) => store.record({ callId: id, tool: 'bash' }, async () => change());

describe('restore planning', () => {
  it('a restore across many calls changes only what differs: changed-back and created-then-deleted files stay', async () => {
    await store.snapshot();
    const start = files(ws.root);
    await call('c1', () => writeFileSync(ws.path('a.txt'), 'changed\n'));
    await call('c2', () => writeFileSync(ws.path('a.txt'), 'alpha\n'));
    await call('c3', () => writeFileSync(ws.path('x.txt'), 'brief\n'));
    await call('c4', () => rmSync(ws.path('x.txt')));
    await call('c5', () => chmodSync(ws.path('tool.sh'), 0o755));
    await call('c6', () => writeFileSync(ws.path('b.txt'), 'changed\n'));
    const list = await store.list({ limit: 20 });
    if (!list.success) throw new Error(list.error);
    const first = list.checkpoints.find((c) => c.call_id === 'c1')!;
    // A short id in capitals names the same checkpoint.
    const out = await store.restore({ to: first.before!.slice(0, 10).toUpperCase() });
    expect(out).toMatchObject({ success: true, restored_to: first.before, changed_files: ['b.txt', 'tool.sh'] });
    expect(files(ws.root)).toEqual(start);
    if (!out.success) throw new Error(out.error);
    // The restore's checkpoint holds exactly the state restored to.
    const same = await store.diff({ from: first.before!, to: out.id });
    expect(same).toMatchObject({ success: true, diff: '' });
  });

  it('a restore to the newest checkpoint changes nothing; an unknown id is checkpoint_not_found', async () => {
    await call('c1', () => writeFileSync(ws.path('a.txt'), 'changed\n'));
    const list = await store.list({ limit: 1 });
    if (!list.success) throw new Error(list.error);
    const newest = list.checkpoints[0]!.id;
    expect(await store.restore({ to: newest })).toMatchObject({ success: true, id: newest, changed_count: 0 });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('changed\n');
    for (const to of ['ffff', 'zzzz', '--output=x'])
      expect(await store.restore({ to })).toMatchObject({ error_code: 'checkpoint_not_found' });
  });

  it('a restore of a recorded change runs five git steps: a history listing and a tree diff, one blob batch, stage, commit (no status: nothing changed since the call)', async () => {
    await store.snapshot();
    const base = await store.snapshot();
    if (!base.success) throw new Error(base.error);
    await call('c1', () => {
      writeFileSync(ws.path('a.txt'), 'changed\n');
      writeFileSync(ws.path('new.txt'), 'new\n');
      rmSync(ws.path('b.txt'));
    });
    const runs = await gitRuns(ws.base, () => store.restore({ to: base.id }));
    expect(runs).toEqual(['cat-file', 'commit-tree', 'diff-tree', 'log', 'update-index']);
    expect(readFileSync(ws.path('b.txt'), 'utf8')).toBe('beta\n');
  });

  it('changes found when the restore starts are planned against: the restore of them is refused, then forced', async () => {
    await call('c1', () => writeFileSync(ws.path('a.txt'), 'by call\n'));
    const list = await store.list({ limit: 1 });
    if (!list.success) throw new Error(list.error);
    writeFileSync(ws.path('b.txt'), 'by hand\n');
    writeFileSync(ws.path('c.txt'), 'new by hand\n');
    const to = list.checkpoints[0]!.before!;
    const refused = await store.restore({ to });
    expect(refused).toMatchObject({ error_code: 'conflict', conflicts: ['b.txt', 'c.txt'] });
    const forced = await store.restore({ to, force: true });
    expect(forced).toMatchObject({ success: true, changed_files: ['a.txt', 'b.txt', 'c.txt'] });
    expect(files(ws.root)).toEqual(['a.txt 644 YWxwaGEK', 'b.txt 644 YmV0YQo=', 'tool.sh 644 IyEvYmluL3NoCg==']);
  });
});
