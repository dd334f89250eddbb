import { Branch } from '@bough/core';
import { branchWithCalls } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { handleContext } from './handle-context.js';
import type { ContextInput } from './schema.js';

function chat(n: number, system = true): Branch {
  const branch = new Branch(system ? { system: 'sys' } : {});
  for (let i = 0; i < n; i += 1) branch.addMessage({ role: 'user', content: `m${i}` });
  return branch;
}

describe('context evict', () => {
  it('never hides the system message: start clamps to 1 and end defaults to start + 1', async () => {
    const branch = chat(3);
    const [, first] = branch.activeIds();
    const out = await handleContext(branch, { action: 'evict', start: 0 });
    expect(out).toMatchObject({ success: true, removed: 1, removed_ids: [first], added_ids: [], active: 3, total: 4 });
    expect(branch.messages).toHaveLength(4);
    expect(branch.isActive(branch.messages[0]?.id as string)).toBe(true);
  });

  it('clamps the end and reports the hidden ids in order', async () => {
    const branch = chat(3);
    const ids = branch.activeIds().slice(2);
    const out = await handleContext(branch, { action: 'evict', start: 2, end: 99 });
    expect(out).toMatchObject({ removed: 2, removed_ids: ids, active: 2 });
  });

  it('fails with invalid_range when the clamped range is empty', async () => {
    const branch = chat(2);
    for (const request of [
      { action: 'evict', start: 3 },
      { action: 'evict', start: 2, end: 1 },
    ]) {
      const out = await handleContext(branch, request as ContextInput);
      expect(out).toMatchObject({ success: false, error_code: 'invalid_range' });
    }
    expect(branch.activeIds()).toHaveLength(3);
  });

  it('lets a branch without a system message hide its first message', async () => {
    const branch = chat(2, false);
    const first = branch.activeIds()[0];
    const out = await handleContext(branch, { action: 'evict' });
    expect(out).toMatchObject({ success: true, removed_ids: [first] });
  });
});

describe('context evict_action_results', () => {
  it('keeps the newest five results by default and hides older results with their requests', async () => {
    const branch = await branchWithCalls(7);
    const out = await handleContext(branch, { action: 'evict_action_results' });
    expect(out).toMatchObject({ success: true, action: 'evict_action_results', removed: 4 });
    const active = branch.activeMessages();
    expect(active.filter((m) => m.role === 'action_response')).toHaveLength(5);
    expect(active.filter((m) => m.role === 'action_request')).toHaveLength(5);
    const hidden = (out as { removed_ids: string[] }).removed_ids.map((id) => branch.getMessage(id));
    expect(hidden.map((m) => (m?.content as { call_id?: string } | undefined)?.call_id)).toEqual(
      branch.messages.slice(2, 6).map((m) => (m.content as { call_id: string }).call_id),
    );
  });

  it('keeps none when keep_last is zero or negative', async () => {
    for (const keep of [0, -3]) {
      const branch = await branchWithCalls(3);
      const out = await handleContext(branch, { action: 'evict_action_results', keep_last: keep });
      expect(out).toMatchObject({ removed: 6, active: 2 });
    }
  });

  it('changes nothing when there are no more results than it keeps', async () => {
    const branch = await branchWithCalls(2);
    const out = await handleContext(branch, { action: 'evict_action_results', keep_last: 3 });
    expect(out).toMatchObject({ success: true, removed: 0, removed_ids: [] });
    expect((out as { message: string }).message).toContain('2 tool results');
    expect(branch.activeIds()).toHaveLength(6);
  });
});

describe('context restore', () => {
  it('brings evicted messages back in chronological order using full-record indices', async () => {
    const branch = chat(4);
    await handleContext(branch, { action: 'evict', start: 1, end: 4 });
    const out = await handleContext(branch, { action: 'restore', start: 2 });
    expect(out).toMatchObject({ success: true, restored: 1, added_ids: [branch.messages[2]?.id], removed_ids: [] });
    await handleContext(branch, { action: 'restore', start: 0, end: 10 });
    expect(branch.activeIds()).toEqual(branch.messages.map((m) => m.id));
  });

  it('needs a start; a window past the end is clamped to an empty success', async () => {
    const branch = chat(1);
    expect(await handleContext(branch, { action: 'restore' })).toMatchObject({ error_code: 'invalid_request' });
    expect(await handleContext(branch, { action: 'restore', start: 5 })).toMatchObject({ success: true, restored: 0 });
  });

  it('counts only messages that were hidden', async () => {
    const branch = chat(2);
    const out = await handleContext(branch, { action: 'restore', start: 0, end: 3 });
    expect(out).toMatchObject({ success: true, restored: 0, added_ids: [] });
  });
});
