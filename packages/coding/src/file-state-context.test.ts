import { readFileSync } from 'node:fs';
import type { Branch } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';

/**
 * DESIGN §4 "mutation-derived file state outlives the read evidence": every way the context tool can take
 * evidence out of the active view, for read- and write-derived entries, through the real tool and branch.act.
 */
let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
});
afterEach(() => ws.cleanup());

const branchFor = () => toolkitBranch(ws.root, { tools: ['reader', 'editor', 'context'], notify: false });
const edit = (from: string, to: string) => ({ action: 'edit', file_path: 'a.txt', old_string: from, new_string: to });

/** Runs a call and returns the active-view index of its response message. */
async function act(branch: Branch, name: string, args: unknown): Promise<{ output: unknown; index: number }> {
  const done = await branch.act({ name, arguments: args });
  const response = branch.messages.find(
    (m) => m.role === 'action_response' && (m.content as { call_id: string }).call_id === done.id,
  );
  return { output: done.output, index: branch.activeIds().indexOf(response?.id as string) };
}

/** Takes the active-view span [start, end) out with the given context action. */
async function remove(branch: Branch, how: string, start: number, end: number) {
  const args =
    how === 'evict'
      ? { action: 'evict', start, end }
      : how === 'compact'
        ? { action: 'compact', start, end, summary: 'earlier tool work', mode: 'all' }
        : { action: 'evict_action_results', keep_last: 0 };
  const out = (await call(branch, 'context', args)) as { success: boolean };
  expect(out.success, how).toBe(true);
}

describe.each(['evict', 'evict_action_results', 'compact'])('file state after %s via the context tool', (how) => {
  it('drops a read-derived entry once its read leaves the active view', async () => {
    const branch = branchFor();
    const read = await act(branch, 'reader', { action: 'read', path: 'a.txt' });
    expect(read.index).toBeGreaterThan(0);
    await remove(branch, how, read.index - 1, read.index + 1);
    expect(await call(branch, 'editor', edit('alpha', 'x'))).toMatchObject({ error_code: 'not_read' });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('alpha\n');
  });

  it('drops a write-derived entry once the write leaves the active view, and not before', async () => {
    const branch = branchFor();
    await act(branch, 'reader', { action: 'read', path: 'a.txt' });
    const written = await act(branch, 'editor', edit('alpha', 'one'));
    expect(written.output).toMatchObject({ success: true });
    // other evidence going away (b.txt's read, which comes later) does not touch a.txt's entry
    const other = await act(branch, 'reader', { action: 'read', path: 'b.txt' });
    if (how === 'evict') {
      await remove(branch, how, other.index - 1, other.index + 1);
      expect((await call(branch, 'editor', edit('one', 'two'))).success).toBe(true);
      const again = branch.activeIds().length;
      await remove(branch, how, 1, again);
    } else {
      await remove(branch, how, 1, branch.activeIds().length);
    }
    const refused = await call(branch, 'editor', edit(how === 'evict' ? 'two' : 'one', 'three'));
    expect(refused).toMatchObject({ error_code: 'not_read' });
    expect(await call(branch, 'editor', { action: 'write', file_path: 'a.txt', content: 'overwrite\n' })).toMatchObject(
      { error_code: 'not_read' },
    );
  });
});

describe('write-derived evidence is independent of the read it started from', () => {
  it('keeps an entry while its latest write is active even after the original read was evicted', async () => {
    const branch = branchFor();
    const read = await act(branch, 'reader', { action: 'read', path: 'a.txt' });
    await act(branch, 'editor', edit('alpha', 'one'));
    await remove(branch, 'evict', read.index - 1, read.index + 1);
    expect((await call(branch, 'editor', edit('one', 'two'))).success).toBe(true);
  });

  it('a dropped entry stays dropped after restore: the file must be read again (conservative)', async () => {
    const branch = branchFor();
    const read = await act(branch, 'reader', { action: 'read', path: 'a.txt' });
    await remove(branch, 'evict', read.index - 1, read.index + 1);
    expect(await call(branch, 'editor', edit('alpha', 'x'))).toMatchObject({ error_code: 'not_read' });
    const restored = (await call(branch, 'context', { action: 'restore', start: 0, end: branch.messages.length })) as {
      success: boolean;
    };
    expect(restored.success).toBe(true);
    expect(await call(branch, 'editor', edit('alpha', 'x'))).toMatchObject({ error_code: 'not_read' });
    await call(branch, 'reader', { action: 'read', path: 'a.txt' });
    expect((await call(branch, 'editor', edit('alpha', 'x'))).success).toBe(true);
  });
});
