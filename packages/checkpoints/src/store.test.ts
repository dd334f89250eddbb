import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from '@bough/core';
import { initRepo, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCheckpointStore, defaultStoreDir } from './index.js';
import { bash, files } from './test-helpers.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'shared.txt': 'shared\n' });
});
afterEach(() => ws.cleanup());
const storeDir = () => join(ws.base, 'store');

describe('snapshots', () => {
  it('an unchanged tree reuses the newest checkpoint; a change writes one naming the files', async () => {
    const store = createCheckpointStore({ root: ws.root, storeDir: storeDir() });
    const first = await store.snapshot();
    expect(first).toMatchObject({ success: true, created: true, changed_files: ['a.txt', 'shared.txt'] });
    const again = await store.snapshot();
    expect(again).toMatchObject({ success: true, created: false, changed_count: 0 });
    if (!first.success || !again.success) throw new Error('snapshot failed');
    expect(again.id).toBe(first.id);
    ws.write('a.txt', 'changed\n');
    expect(await store.snapshot()).toMatchObject({ created: true, changed_files: ['a.txt'] });
  });

  it('files over maxFileBytes, links and protected names are skipped and reported, and a restore never touches them', async () => {
    const store = createCheckpointStore({ root: ws.root, storeDir: storeDir(), limits: { maxFileBytes: 100 } });
    ws.write('big.bin', Buffer.alloc(50, 1));
    await store.snapshot();
    ws.write('big.bin', Buffer.alloc(500, 2)); // grew over the limit: left out from now on
    ws.write('id_rsa', 'PRIVATE');
    symlinkSync('a.txt', ws.path('link'));
    const out = await store.snapshot();
    expect(out).toMatchObject({ success: true });
    if (!out.success) throw new Error(out.error);
    expect(out.skipped.sort((x, y) => x.path.localeCompare(y.path))).toEqual([
      { path: 'big.bin', reason: 'too_large' },
      { path: 'id_rsa', reason: 'protected' },
      { path: 'link', reason: 'symlink' },
    ]);
    const list = await store.list();
    if (!list.success) throw new Error(list.error);
    const restored = await store.restore({ to: list.checkpoints.at(-1)!.id });
    expect(restored).toMatchObject({ success: true, skipped: [{ path: 'big.bin', reason: 'too_large' }] });
    expect(readFileSync(ws.path('big.bin'))).toEqual(Buffer.alloc(500, 2));
    expect(existsSync(ws.path('id_rsa'))).toBe(true);
    // No object in the store holds the protected file's bytes.
    const objects = await store.diff({ from: list.checkpoints.at(-1)!.id, to: list.checkpoints[0]!.id });
    expect(JSON.stringify(objects)).not.toContain('PRIVATE');
  });

  it('a nested repository (a git worktree inside the workspace) is skipped whole, never stored', async () => {
    const store = createCheckpointStore({ root: ws.root, storeDir: storeDir() });
    ws.write('.worktrees/box/inner.txt', 'inside the worktree\n');
    initRepo(ws.path('.worktrees/box'));
    const out = await store.snapshot();
    expect(out).toMatchObject({ success: true, changed_files: ['a.txt', 'shared.txt'] });
    if (!out.success) throw new Error(out.error);
    expect(out.skipped).toEqual([{ path: '.worktrees/box', reason: 'nested_repository' }]);
    ws.write('.worktrees/box/inner.txt', 'changed\n');
    expect(await store.snapshot()).toMatchObject({ created: false, skipped: [] });
  });

  it('respectGitignore: false stores ignored files too', async () => {
    ws.write('.gitignore', '*.log\n');
    ws.write('x.log', 'log\n');
    const kept = createCheckpointStore({ root: ws.root, storeDir: join(ws.base, 'one') });
    expect(await kept.snapshot()).toMatchObject({ changed_files: ['.gitignore', 'a.txt', 'shared.txt'] });
    const all = createCheckpointStore({ root: ws.root, storeDir: join(ws.base, 'two'), respectGitignore: false });
    expect(await all.snapshot()).toMatchObject({ changed_files: ['.gitignore', 'a.txt', 'shared.txt', 'x.log'] });
  });

  it("waits for another live process holding the store (store_busy after lockWaitMs) and takes over a dead one's lock", async () => {
    const store = createCheckpointStore({ root: ws.root, storeDir: storeDir(), limits: { lockWaitMs: 100 } });
    expect(await store.snapshot()).toMatchObject({ success: true });
    mkdirSync(join(storeDir(), 'lock'));
    writeFileSync(join(storeDir(), 'lock', 'pid'), String(process.ppid));
    expect(await store.snapshot()).toMatchObject({ success: false, error_code: 'store_busy' });
    writeFileSync(join(storeDir(), 'lock', 'pid'), '2147483646'); // no such process
    expect(await store.snapshot()).toMatchObject({ success: true });
  });

  it('refuses a store directory that belongs to another workspace', async () => {
    expect(await createCheckpointStore({ root: ws.root, storeDir: storeDir() }).snapshot()).toMatchObject({
      success: true,
    });
    const other = join(ws.base, 'other');
    mkdirSync(other);
    const out = await createCheckpointStore({ root: other, storeDir: storeDir() }).snapshot();
    expect(out).toMatchObject({ success: false, error_code: 'store_error' });
    expect(JSON.stringify(out)).toContain('give each workspace its own storeDir');
  });

  it('a bad limit throws a ConfigurationError naming the key', () => {
    expect(() => createCheckpointStore({ root: ws.root, storeDir: storeDir(), limits: { maxFileBytes: 0 } })).toThrow(
      ConfigurationError,
    );
  });

  it('the default store lives under the state directory, keyed by the real path, outside the workspace', () => {
    const dir = defaultStoreDir(ws.root, { XDG_STATE_HOME: '/state' });
    expect(dir).toMatch(/^\/state\/bough\/checkpoints\/[0-9a-f]{24}$/u);
    expect(defaultStoreDir(ws.root, { HOME: '/home/u' })).toMatch(/^\/home\/u\/\.local\/state\/bough\/checkpoints\//u);
    expect(defaultStoreDir(`${ws.root}x`, { XDG_STATE_HOME: '/state' })).not.toBe(dir);
    const store = createCheckpointStore({ root: ws.root, env: { XDG_STATE_HOME: join(ws.base, 'state') } });
    expect(store.storeDir.startsWith(join(ws.base, 'state', 'bough', 'checkpoints'))).toBe(true);
  });
});

describe('a store is never inside its workspace', () => {
  it('a storeDir or state directory in the workspace, or reached through a link into it, throws', () => {
    symlinkSync(ws.root, join(ws.base, 'into-ws'));
    for (const options of [
      { storeDir: ws.path('.checkpoints') },
      { storeDir: ws.root },
      { storeDir: join(ws.base, 'into-ws', 'deeper', 'store') },
      { env: { XDG_STATE_HOME: ws.path('state') } },
      { env: { HOME: ws.root } },
    ]) {
      expect(() => createCheckpointStore({ root: ws.root, ...options }), JSON.stringify(options)).toThrow(
        /inside the workspace/u,
      );
    }
    expect(() => createCheckpointStore({ root: ws.root, storeDir: `${ws.root}-store` })).not.toThrow();
  });
});

describe('history shared by branches and sessions', () => {
  it('two branches on one workspace: each call is attributed; a branch restore refuses to undo the other branch', async () => {
    const a = createCheckpointStore({ root: ws.root, storeDir: storeDir() });
    const b = createCheckpointStore({ root: ws.root, storeDir: storeDir() });
    // One call after the other: two calls running at once on one workspace cannot be told apart by a snapshot.
    await a.record({ branch: 'A', callId: 'a1', tool: 'bash' }, () =>
      bash(ws.root, "python3 -c \"open('a.txt','w').write('A1')\""),
    );
    await b.record({ branch: 'B', callId: 'b1', tool: 'bash' }, () =>
      bash(ws.root, "python3 -c \"open('b.txt','w').write('B1')\""),
    );
    await b.record({ branch: 'B', callId: 'b2', tool: 'bash' }, () =>
      bash(ws.root, "python3 -c \"open('shared.txt','w').write('B2')\""),
    );
    const mine = await a.list({ branch: 'A' });
    if (!mine.success) throw new Error(mine.error);
    expect(mine.checkpoints.map((c) => [c.kind, c.call_id])).toEqual([
      ['after', 'a1'],
      ['before', undefined],
    ]);
    // A fresh store on the same workspace (a resumed session) sees the same history.
    const resumed = createCheckpointStore({ root: ws.root, storeDir: storeDir() });
    const all = await resumed.list();
    if (!all.success) throw new Error(all.error);
    expect(
      all.checkpoints
        .filter((c) => c.kind === 'after')
        .map((c) => c.call_id)
        .sort(),
    ).toEqual(['a1', 'b1', 'b2']);

    const undoA = mine.checkpoints[0]!.before!;
    const before = files(ws.root);
    const refused = await a.restore({ to: undoA, branch: 'A' });
    expect(refused).toMatchObject({ success: false, error_code: 'conflict', conflicts: ['b.txt', 'shared.txt'] });
    expect(files(ws.root)).toEqual(before);
    const out = await a.restore({ to: undoA, branch: 'A', paths: ['a.txt'] });
    expect(out).toMatchObject({ success: true, changed_files: ['a.txt'] });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('alpha\n');
    expect(readFileSync(ws.path('b.txt'), 'utf8')).toBe('B1');
    expect(readFileSync(ws.path('shared.txt'), 'utf8')).toBe('B2');
  });

  it('diff shows one call or a range', async () => {
    const store = createCheckpointStore({ root: ws.root, storeDir: storeDir() });
    await store.snapshot();
    await store.record({ callId: 'c1' }, async () => writeFileSync(ws.path('a.txt'), 'one\n'));
    await store.record({ callId: 'c2' }, async () => writeFileSync(ws.path('shared.txt'), 'two\n'));
    const list = await store.list();
    if (!list.success) throw new Error(list.error);
    const [c2, c1] = list.checkpoints;
    const one = await store.diff({ from: c1!.id });
    expect(one).toMatchObject({ success: true, truncated: false });
    if (!one.success) throw new Error(one.error);
    expect(one.diff).toContain('-alpha\n+one\n');
    expect(one.diff).not.toContain('shared.txt');
    const range = await store.diff({ from: c1!.before!, to: c2!.id, paths: ['shared.txt'] });
    if (!range.success) throw new Error(range.error);
    expect(range.diff).toContain('+two');
    expect(range.diff).not.toContain('a.txt');
    expect(await store.diff({ from: 'nothex!' })).toMatchObject({ error_code: 'checkpoint_not_found' });
  });
});
