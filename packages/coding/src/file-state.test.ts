import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import type { BranchEvent, BranchView } from '@bough/core';
import { makeWorkspace, sha256File, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import { checkBeforeEdit } from './edit-guard.js';
import { FileState } from './file-state.js';
import { STANDARD_SOURCES } from './tool-sources.js';

const sources = STANDARD_SOURCES;
let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
});
afterEach(() => ws.cleanup());

const branchFor = () => toolkitBranch(ws.root, { tools: ['reader', 'editor', 'context'], notify: false }, { sources });
const edit = (file: string, from: string, to: string) => ({
  action: 'edit',
  file_path: file,
  old_string: from,
  new_string: to,
});

describe('read-before-edit guard', () => {
  it('lets a new file be written without a read', async () => {
    const branch = branchFor();
    const out = await call(branch, 'editor', { action: 'write', file_path: 'new.txt', content: 'x\n' });
    expect(out.success).toBe(true);
    expect(readFileSync(ws.path('new.txt'), 'utf8')).toBe('x\n');
  });

  it('refuses to edit or overwrite an existing file that was never read, and changes nothing', async () => {
    const branch = branchFor();
    const edited = await call(branch, 'editor', edit('a.txt', 'alpha', 'ALPHA'));
    expect(edited).toMatchObject({ success: false, error_code: 'not_read' });
    expect(edited.error).toMatch(/reader/);
    const written = await call(branch, 'editor', { action: 'write', file_path: 'a.txt', content: 'gone' });
    expect(written).toMatchObject({ success: false, error_code: 'not_read' });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('alpha\n');
  });

  it('allows an edit after a read, and a follow-up edit on the strength of its own write', async () => {
    const branch = branchFor();
    expect((await call(branch, 'reader', { action: 'read', path: 'a.txt' })).success).toBe(true);
    expect((await call(branch, 'editor', edit('a.txt', 'alpha', 'ALPHA'))).success).toBe(true);
    expect((await call(branch, 'editor', edit('a.txt', 'ALPHA', 'omega'))).success).toBe(true);
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('omega\n');
  });

  it('catches a same-size change made in the same second (content hash, not mtime)', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'a.txt' });
    const before = new Date('2024-01-01T00:00:00Z');
    utimesSync(ws.path('a.txt'), before, before);
    writeFileSync(ws.path('a.txt'), 'ALPHA\n');
    utimesSync(ws.path('a.txt'), before, before);
    const out = await call(branch, 'editor', edit('a.txt', 'ALPHA', 'x'));
    expect(out).toMatchObject({ success: false, error_code: 'stale_read' });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('ALPHA\n');
    await call(branch, 'reader', { action: 'read', path: 'a.txt' });
    expect((await call(branch, 'editor', edit('a.txt', 'ALPHA', 'x'))).success).toBe(true);
  });

  it('raises no false alarm when a file is touched without changing', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'a.txt' });
    const later = new Date(Date.now() + 60_000);
    utimesSync(ws.path('a.txt'), later, later);
    expect((await call(branch, 'editor', edit('a.txt', 'alpha', 'beta'))).success).toBe(true);
  });

  it('catches a change made by the bash tool-style outside writer after our own write', async () => {
    const branch = branchFor();
    await call(branch, 'editor', { action: 'write', file_path: 'c.txt', content: 'one\n' });
    writeFileSync(ws.path('c.txt'), 'two\n');
    expect(await call(branch, 'editor', edit('c.txt', 'two', 'three'))).toMatchObject({ error_code: 'stale_read' });
  });
});

describe('what counts as a read', () => {
  it('counts a windowed read as evidence for the whole file (the hash still covers all of it)', async () => {
    ws.write('long.txt', 'l1\nl2\nl3\nl4\n');
    const branch = branchFor();
    const window = await call(branch, 'reader', { action: 'read', path: 'long.txt', offset: 2, limit: 1 });
    expect(window).toMatchObject({ success: true, start_line: 3, end_line: 3 });
    expect(
      (await call(branch, 'editor', { action: 'edit', file_path: 'long.txt', old_string: 'l1', new_string: 'L1' }))
        .success,
    ).toBe(true);
    writeFileSync(ws.path('long.txt'), 'l1\nl2\nl3\nl4 changed\n');
    expect(
      await call(branch, 'editor', { action: 'edit', file_path: 'long.txt', old_string: 'l2', new_string: 'L2' }),
    ).toMatchObject({
      error_code: 'stale_read',
    });
  });

  it('does not count a directory listing or a failed read', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'list_dir', path: '.' });
    await call(branch, 'reader', { action: 'read', path: 'nope.txt' });
    expect(await call(branch, 'editor', edit('a.txt', 'alpha', 'x'))).toMatchObject({ error_code: 'not_read' });
  });

  it('keys state by real path, so another spelling of the same file is the same file', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: './src/../a.txt' });
    expect((await call(branch, 'editor', edit(ws.path('a.txt'), 'alpha', 'x'))).success).toBe(true);
  });
});

describe('file state follows the active view', () => {
  it('drops read evidence once the read response is evicted', async () => {
    const branch = branchFor();
    const read = await branch.act({ name: 'reader', arguments: { action: 'read', path: 'a.txt' } });
    const response = branch.messages.find(
      (m) => m.role === 'action_response' && (m.content as { call_id: string }).call_id === read.id,
    );
    branch.evict([response?.id as string]);
    expect(await call(branch, 'editor', edit('a.txt', 'alpha', 'x'))).toMatchObject({ error_code: 'not_read' });
  });

  it('drops write-derived evidence too, after evict_action_results through the context tool', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'a.txt' });
    await call(branch, 'editor', edit('a.txt', 'alpha', 'x'));
    const out = await call(branch, 'context', { action: 'evict_action_results', keep_last: 0 });
    expect(out.success).toBe(true);
    expect(await call(branch, 'editor', edit('a.txt', 'x', 'y'))).toMatchObject({ error_code: 'not_read' });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('x\n');
  });

  it('drops evidence compacted away by the context tool', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'a.txt' });
    const end = branch.activeIds().length;
    const out = await call(branch, 'context', { action: 'compact', start: 1, end, summary: 'read a.txt', mode: 'all' });
    expect(out.success).toBe(true);
    expect(await call(branch, 'editor', edit('a.txt', 'alpha', 'x'))).toMatchObject({ error_code: 'not_read' });
  });

  it('fails the check (never allows) for a file above the hash limit', async () => {
    const branch = toolkitBranch(
      ws.root,
      { tools: ['reader', 'editor'], notify: false, limits: { guardMaxBytes: 3 } },
      { sources },
    );
    await call(branch, 'reader', { action: 'read', path: 'a.txt' });
    expect(await call(branch, 'editor', edit('a.txt', 'alpha', 'x'))).toMatchObject({
      error_code: 'guard_check_failed',
    });
  });

  it('keeps evidence whose response has not landed yet when an eviction runs in the same batch', async () => {
    const branch = branchFor();
    await call(branch, 'reader', { action: 'read', path: 'b.txt' });
    await branch.act(
      [
        { name: 'reader', arguments: { action: 'read', path: 'a.txt' } },
        { name: 'context', arguments: { action: 'evict_action_results', keep_last: 0 } },
      ],
      { strategy: 'concurrent' },
    );
    expect((await call(branch, 'editor', edit('a.txt', 'alpha', 'x'))).success).toBe(true);
    expect(
      await call(branch, 'editor', { action: 'edit', file_path: 'b.txt', old_string: 'beta', new_string: 'y' }),
    ).toMatchObject({
      error_code: 'not_read',
    });
  });

  it('keeps an entry while any of its evidence is active', async () => {
    const branch = branchFor();
    const first = await branch.act({ name: 'reader', arguments: { action: 'read', path: 'a.txt' } });
    await call(branch, 'reader', { action: 'read', path: 'a.txt' });
    const response = branch.messages.find(
      (m) => (m.content as { call_id?: string }).call_id === first.id && m.role === 'action_response',
    );
    branch.evict([response?.id as string]);
    expect((await call(branch, 'editor', edit('a.txt', 'alpha', 'x'))).success).toBe(true);
  });

  it('does not count a read whose result was turned into a failure before the model saw it', async () => {
    const branch = toolkitBranch(
      ws.root,
      {
        tools: ['reader', 'editor'],
        notify: false,
        hooks: { post: { reader: () => ({ success: false, error: 'hidden by policy', error_code: 'redacted' }) } },
      },
      { sources },
    );
    await call(branch, 'reader', { action: 'read', path: 'a.txt' });
    expect(await call(branch, 'editor', edit('a.txt', 'alpha', 'x'))).toMatchObject({ error_code: 'not_read' });
  });
});

describe('checkBeforeEdit', () => {
  it('never allows silently when the file cannot be hashed', async () => {
    const real = await Workspace.open(ws.root);
    const state = new FileState();
    state.record(ws.path('a.txt'), sha256File(ws.path('a.txt')), 'c1', 'read');
    const broken = {
      resolve: real.resolve.bind(real),
      openRead: async () => ({ success: false, error: 'nope', error_code: 'io_error' }),
      openOrLoad: async () => ({ success: false, error: 'nope', error_code: 'io_error' }),
    } as unknown as Workspace;
    expect(await checkBeforeEdit(real, state, 'a.txt')).toBeUndefined();
    expect(await checkBeforeEdit(broken, state, 'a.txt')).toMatchObject({
      success: false,
      error_code: 'guard_check_failed',
    });
  });
});

describe('FileState pruning', () => {
  /** The least of a branch a FileState follows: which calls are active, and a way to announce changes. */
  function fakeBranch() {
    const active = new Set<string>();
    let listener: ((event: BranchEvent) => void) | undefined;
    const branch = {
      isCallActive: (id: string) => active.has(id),
      subscribe: (next: (event: BranchEvent) => void) => {
        listener = next;
        return () => {
          listener = undefined;
        };
      },
    } as unknown as BranchView;
    const land = (callId: string) => {
      active.add(callId);
      listener?.({
        type: 'message',
        message: { id: `m-${callId}`, role: 'action_response', content: { call_id: callId, status: 'completed' } },
      } as unknown as Extract<BranchEvent, { type: 'message' }>);
    };
    const evict = (callId: string) => {
      active.delete(callId);
      listener?.({ type: 'active', removed: [`m-${callId}`], added: [] });
    };
    return { branch, land, evict };
  }

  it('drops evidence evicted after a lookup already pruned the entry', () => {
    const { branch, land, evict } = fakeBranch();
    const state = new FileState();
    state.attach(branch);
    state.record('/ws/a.txt', 'd1', 'c1', 'read');
    land('c1');
    expect(state.get('/ws/a.txt')?.digests.has('d1')).toBe(true);
    // Looked up again with nothing changed in between: still there, and its evidence still names the call.
    expect(state.get('/ws/a.txt')?.evidence.has('c1')).toBe(true);
    evict('c1');
    expect(state.get('/ws/a.txt')).toBeUndefined();
  });

  it('keeps evidence recorded after the last prune until its own call leaves', () => {
    const { branch, land, evict } = fakeBranch();
    const state = new FileState();
    state.attach(branch);
    state.record('/ws/a.txt', 'd1', 'c1', 'read');
    land('c1');
    expect(state.get('/ws/a.txt')).toBeDefined();
    state.record('/ws/a.txt', 'd2', 'c2', 'write');
    land('c2');
    evict('c1');
    const entry = state.get('/ws/a.txt');
    expect(entry?.digests.has('d1')).toBe(false);
    expect(entry?.digests.has('d2')).toBe(true);
    evict('c2');
    expect(state.get('/ws/a.txt')).toBeUndefined();
  });
});
