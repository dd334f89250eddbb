import { join } from 'node:path';
import { Branch } from '@bough/core';
import { describeToolConformance, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHECKPOINTS_DESCRIPTION, checkpointsProvider, createCheckpointStore, createCheckpointsTool } from './index.js';

describeToolConformance('checkpoints', {
  makeTool: (ws) => createCheckpointsTool({ root: ws.root, storeDir: join(ws.base, 'store') }),
  validRequest: () => ({ action: 'list' }),
  invalidRequests: [
    {},
    { action: 'undo' },
    { action: 'list', limit: 0 },
    { action: 'list', limit: 'ten' },
    { action: 'restore', to: 'abcd', force: 'yes' },
    { action: 'list', extra: 1 },
    { action: 'diff' },
    { action: 'restore' },
  ],
  escapeRequests: (ws) => [
    { action: 'restore', to: 'abcd', paths: ['../ws-evil/secret.txt'] },
    { action: 'restore', to: 'abcd', paths: [`${ws.outside}/secret.txt`] },
    { action: 'diff', from: 'abcd', paths: ['..'] },
  ],
});

describe('checkpoints tool', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'a.txt': 'one\n' });
  });
  afterEach(() => ws.cleanup());

  it('lists, diffs and restores through a branch; the restore is attributed to the call and the branch', async () => {
    const store = createCheckpointStore({ root: ws.root, storeDir: join(ws.base, 'store') });
    await store.snapshot();
    await store.record({ callId: 'edit-1', tool: 'editor' }, async () => ws.write('a.txt', 'two\n'));
    const branch = new Branch({ name: 'main' });
    branch.registerTools(checkpointsProvider({ store }));
    const list = await branch.act({ name: 'checkpoints', arguments: { action: 'list', limit: 5 } });
    const entries = (list.output as { checkpoints: { id: string; before: string; call_id?: string }[] }).checkpoints;
    expect(entries[0]).toMatchObject({ call_id: 'edit-1' });
    const diff = await branch.act({ name: 'checkpoints', arguments: { action: 'diff', from: entries[0]!.id } });
    expect(diff.output).toMatchObject({ success: true });
    expect((diff.output as { diff: string }).diff).toContain('+two');
    const restore = await branch.act({ name: 'checkpoints', arguments: { action: 'restore', to: entries[0]!.before } });
    expect(restore.output).toMatchObject({ success: true, changed_files: ['a.txt'] });
    const after = await store.list({ limit: 1 });
    expect(after).toMatchObject({
      checkpoints: [{ kind: 'restore', tool: 'checkpoints', branch: 'main', call_id: restore.id }],
    });
  });

  it('the description says how to undo a call and how to recover from a conflict', () => {
    for (const text of ['before', 'force', 'conflict', 'paths']) expect(CHECKPOINTS_DESCRIPTION).toContain(text);
  });
});
