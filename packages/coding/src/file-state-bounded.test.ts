// Under `bough mcp` every call goes through the registry and no message reaches the branch, so no call ever leaves
// the active view. The file state must stay bounded anyway, and losing evidence must only make the guard stricter.
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toolkitBranch } from '../test/helpers.js';
import { FileState } from './file-state.js';
import { STANDARD_SOURCES } from './tool-sources.js';

const FILES = 20;
const CAP = 8;
let ws: TempWorkspace;
beforeEach(() => {
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) files[`f${i}.txt`] = `line one of ${i}\nline two of ${i}\n`;
  ws = makeWorkspace(files);
});
afterEach(() => {
  vi.restoreAllMocks();
  ws.cleanup();
});

/** A branch served as mcp serves it (registry calls only), and the toolkit's file state behind it. */
function served() {
  const attach = vi.spyOn(FileState.prototype, 'attach');
  const branch = toolkitBranch(
    ws.root,
    { tools: ['reader', 'editor'], notify: false, limits: { guardTrackedFiles: CAP } },
    { sources: STANDARD_SOURCES },
  );
  const invoke = async (name: string, args: unknown) =>
    (await branch.registry.invoke(name, args)).output as Record<string, unknown>;
  // The toolkit is built on the first call; its state is the FileState it attached.
  const state = () => attach.mock.contexts.at(-1) as FileState;
  return { branch, invoke, state };
}

describe('file state without messages (mcp)', () => {
  it('stays under the cap across thousands of reads', async () => {
    const { branch, invoke, state } = served();
    const reads = 5_000;
    let most = { files: 0, pending: 0, callIds: 0 };
    for (let i = 0; i < reads; i++) {
      const out = await invoke('reader', { action: 'read', path: `f${i % FILES}.txt` });
      if (out.success !== true) throw new Error(JSON.stringify(out));
      if (i % 250 === 249) {
        const now = state().stats();
        most = {
          files: Math.max(most.files, now.files),
          pending: Math.max(most.pending, now.pending),
          callIds: Math.max(most.callIds, now.callIds),
        };
      }
    }
    expect(branch.messages.length).toBeLessThanOrEqual(1);
    expect(most.files).toBeLessThanOrEqual(CAP);
    // Each file keeps its latest digest's call plus at most its window cap; the pending set is swept to twice that.
    expect(most.callIds).toBeLessThanOrEqual(CAP * 33);
    expect(most.pending).toBeLessThanOrEqual(Math.max(1024, 2 * CAP * 33) + 1);
  });

  it('refuses an edit of an evicted file until it is read again', async () => {
    const { invoke } = served();
    expect((await invoke('reader', { action: 'read', path: 'f0.txt' })).success).toBe(true);
    for (let i = 1; i <= CAP; i++)
      expect((await invoke('reader', { action: 'read', path: `f${i}.txt` })).success).toBe(true);
    const edit = { action: 'edit', file_path: 'f0.txt', old_string: 'line one of 0', new_string: 'first' };
    expect(await invoke('editor', edit)).toMatchObject({ success: false, error_code: 'not_read' });
    expect(readFileSync(ws.path('f0.txt'), 'utf8')).toBe('line one of 0\nline two of 0\n');
    expect((await invoke('reader', { action: 'read', path: 'f0.txt' })).success).toBe(true);
    expect((await invoke('editor', edit)).success).toBe(true);
    expect(readFileSync(ws.path('f0.txt'), 'utf8')).toBe('first\nline two of 0\n');
  });

  it('still catches a same-size, same-mtime change after many reads of the file', async () => {
    const { invoke } = served();
    for (let i = 0; i < 50; i++)
      expect((await invoke('reader', { action: 'read', path: 'f1.txt' })).success).toBe(true);
    const before = statSync(ws.path('f1.txt'));
    writeFileSync(ws.path('f1.txt'), 'LINE ONE OF 1\nLINE TWO OF 1\n');
    utimesSync(ws.path('f1.txt'), before.atime, before.mtime);
    const out = await invoke('editor', {
      action: 'edit',
      file_path: 'f1.txt',
      old_string: 'LINE ONE',
      new_string: 'x',
    });
    expect(out).toMatchObject({ success: false, error_code: 'stale_read' });
  });
});
