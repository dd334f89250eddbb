import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CheckpointStore, createCheckpointStore } from './index.js';
import { gitRuns } from './test-helpers.js';

// The change watch (Linux): between checkpoints, a workspace nobody touched needs no status check; anything anyone
// changes — by hand, from another process, in a new folder, in a folder a .gitignore stopped ignoring — is still found.
const linux = process.platform === 'linux';

let ws: TempWorkspace;
let store: CheckpointStore;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'src/b.txt': 'beta\n', '.gitignore': 'out/\n', 'out/x.txt': 'x\n' });
  store = createCheckpointStore({ root: ws.root, storeDir: join(ws.base, 'store') });
});
afterEach(() => ws.cleanup());

const noop = () => store.record({ callId: 'noop', tool: 'bash' }, async () => undefined);

/** The watch is set up by a process's second check (one-shot commands never pay for it): two snapshots. */
async function watching(): Promise<void> {
  await store.snapshot();
  await store.snapshot();
}

async function snapshotFinds(): Promise<readonly string[]> {
  const out = await store.snapshot();
  if (!out.success) throw new Error(out.error);
  return out.changed_files;
}

describe.runIf(linux)('change watch', () => {
  it('a recorded call that changes nothing, after a checkpoint, runs no git step; with the watch off it runs two status checks', async () => {
    await watching();
    expect(await gitRuns(ws.base, noop)).toEqual([]);
    const off = createCheckpointStore({ root: ws.root, storeDir: join(ws.base, 'store'), limits: { watchMaxDirs: 0 } });
    await off.snapshot();
    const runs = await gitRuns(ws.base, () => off.record({ callId: 'noop', tool: 'bash' }, async () => undefined));
    expect(runs).toEqual(['status', 'status']);
  });

  it('a change made between calls by another process is found before the next call, not given to it', async () => {
    await watching();
    await noop();
    execFileSync('sh', ['-c', 'printf edited > a.txt && chmod +x src/b.txt'], { cwd: ws.root });
    await store.record({ callId: 'c2', tool: 'bash' }, async () => writeFileSync(ws.path('src/c.txt'), 'c\n'));
    const list = await store.list({ limit: 2 });
    if (!list.success) throw new Error(list.error);
    expect(list.checkpoints.map((c) => [c.kind, c.files])).toEqual([
      ['after', ['src/c.txt']],
      ['before', ['a.txt', 'src/b.txt']],
    ]);
  });

  it('changes by another process (edit, mode, delete, rename, a file made and removed) are found by a check of just those paths', async () => {
    writeFileSync(ws.path('src/c.txt'), 'c\n');
    writeFileSync(ws.path('a2.txt'), 'a2\n');
    await watching();
    const script = 'printf x >> a.txt; chmod +x src/b.txt; rm src/c.txt; mv a2.txt src/a3.txt; touch t && rm t';
    execFileSync('sh', ['-c', script], { cwd: ws.root });
    const runs = await gitRuns(ws.base, async () => {
      expect(await snapshotFinds()).toEqual(['a.txt', 'a2.txt', 'src/a3.txt', 'src/b.txt', 'src/c.txt']);
    });
    expect(runs).toEqual(['commit-tree', 'status', 'update-index', 'write-tree']);
    writeFileSync(ws.path('src/b.txt'), 'again\n');
    expect(await snapshotFinds()).toEqual(['src/b.txt']);
  });

  it('a check of just the touched paths leaves the index file alone (only staging rewrites it)', async () => {
    await watching();
    const index = join(ws.base, 'store', 'index');
    const before = statSync(index);
    // Same bytes, new times: the watch names the file, the status of it finds no change, so nothing is staged.
    writeFileSync(ws.path('a.txt'), 'alpha\n');
    utimesSync(ws.path('a.txt'), new Date(Date.now() + 5_000), new Date(Date.now() + 5_000));
    const runs = await gitRuns(ws.base, async () => expect(await snapshotFinds()).toEqual([]));
    expect(runs).toEqual(['status']);
    const after = statSync(index);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('files in a folder made or moved in after the watch began are watched too', async () => {
    await watching();
    mkdirSync(ws.path('new/deep'), { recursive: true });
    writeFileSync(ws.path('new/deep/n.txt'), 'one\n');
    expect(await snapshotFinds()).toEqual(['new/deep/n.txt']);
    writeFileSync(ws.path('new/deep/n.txt'), 'two\n');
    expect(await snapshotFinds()).toEqual(['new/deep/n.txt']);
    mkdirSync(join(ws.base, 'outside/sub'), { recursive: true });
    writeFileSync(join(ws.base, 'outside/sub/m.txt'), 'one\n');
    renameSync(join(ws.base, 'outside'), ws.path('moved'));
    expect(await snapshotFinds()).toEqual(['moved/sub/m.txt']);
    chmodSync(ws.path('moved/sub/m.txt'), 0o755);
    expect(await snapshotFinds()).toEqual(['moved/sub/m.txt']);
  });

  it('a folder a .gitignore stops ignoring is watched from then on', async () => {
    await watching();
    writeFileSync(ws.path('.gitignore'), '');
    expect(await snapshotFinds()).toEqual(['.gitignore', 'out/x.txt']);
    writeFileSync(ws.path('out/x.txt'), 'changed\n');
    expect(await snapshotFinds()).toEqual(['out/x.txt']);
  });
});
