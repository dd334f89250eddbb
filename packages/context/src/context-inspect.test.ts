import { Branch } from '@bough/core';
import { branchWithCalls } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { handleContext } from './handle-context.js';
import type { ContextInput } from './schema.js';
import { messageTokens } from './tokens.js';

describe('context status', () => {
  it('counts the active view by plain role names and reports its exact token count', async () => {
    const branch = await branchWithCalls(2);
    branch.evict([branch.activeIds()[2] as string]);
    const out = await handleContext(branch, { action: 'status' });
    expect(out).toMatchObject({ success: true, active_messages: 5, total_messages: 6, evicted: 1 });
    expect(out).toMatchObject({
      by_role: { system: 1, user: 1, assistant: 0, action_request: 1, action_response: 2 },
    });
    const expected = branch.activeMessages().reduce((sum, message) => sum + messageTokens(message), 0);
    expect((out as { active_tokens: number }).active_tokens).toBe(expected);
    expect(expected).toBeGreaterThan(0);
  });

  it('handles a branch of 10,000 messages and stays consistent on a warm second call', async () => {
    const branch = new Branch({ system: 'big' });
    for (let i = 0; i < 9_999; i += 1)
      branch.addMessage({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}` });
    const cold = await handleContext(branch, { action: 'status' });
    const warm = await handleContext(branch, { action: 'status' });
    expect(warm).toEqual(cold);
    expect(warm).toMatchObject({ active_messages: 10_000, total_messages: 10_000, evicted: 0 });
  });
});

describe('context get_messages', () => {
  it('lists the active view with cut previews and a range', async () => {
    const branch = new Branch({ system: 'sys' });
    branch.addMessage({ role: 'user', content: `line one\nline two ${'x'.repeat(200)}` });
    branch.addMessage({ role: 'assistant', content: 'short' });
    const out = await handleContext(branch, { action: 'get_messages' });
    expect(out).toMatchObject({ success: true, scope: 'active', range: '[0:3] of 3' });
    const lines = (out as { messages: string[] }).messages;
    expect(lines[0]).toBe('[0] system: sys');
    expect(lines[1]).toMatch(/^\[1\] user: line one line two x+\.\.\.$/);
    expect(lines[1]?.length).toBe('[1] user: '.length + 120 + 3);
    expect(lines[2]).toBe('[2] assistant: short');
  });

  it('tags the full record with [active]/[evicted] and full-record indices in scope all', async () => {
    const branch = new Branch({ system: 'sys' });
    const a = branch.addMessage({ role: 'user', content: 'a' });
    branch.addMessage({ role: 'user', content: 'b' });
    branch.evict([a.id]);
    const active = await handleContext(branch, { action: 'get_messages' });
    expect((active as { messages: string[] }).messages).toEqual(['[0] system: sys', '[1] user: b']);
    const all = await handleContext(branch, { action: 'get_messages', scope: 'all', start: 1 });
    expect(all).toMatchObject({ range: '[1:3] of 3', messages: ['[1] [evicted] user: a', '[2] [active] user: b'] });
  });

  it('clamps ranges and returns an empty list for an empty range', async () => {
    const branch = new Branch({ system: 'sys' });
    const beyond = await handleContext(branch, { action: 'get_messages', start: 5, end: 50 });
    expect(beyond).toMatchObject({ success: true, messages: [], range: '[1:1] of 1' });
    const reversed = await handleContext(branch, { action: 'get_messages', start: 1, end: 0 });
    expect(reversed).toMatchObject({ success: true, messages: [] });
  });

  it('pages long listings and says where to continue', async () => {
    const branch = new Branch({ system: 'sys' });
    for (let i = 0; i < 9; i += 1) branch.addMessage({ role: 'user', content: `m${i}` });
    const out = await handleContext(branch, { action: 'get_messages' }, { limits: { maxListedMessages: 4 } });
    expect(out).toMatchObject({ range: '[0:4] of 10', next_start: 4 });
    expect((out as { messages: string[] }).messages).toHaveLength(4);
  });
});

describe('context request validation', () => {
  it.each([
    [{ action: 'explode' }],
    [{ action: 'compact', mode: 'everything' }],
    [{ action: 'get_messages', scope: 'evicted' }],
    [{ action: 'evict', start: -1 }],
    [{ action: 'evict', start: 1.5 }],
    [{ action: 'status', extra: true }],
    [{}],
    ['status'],
  ])('refuses %j as invalid_request', async (request) => {
    const branch = new Branch({ system: 'sys' });
    const out = await handleContext(branch, request as ContextInput);
    expect(out).toMatchObject({ success: false, error_code: 'invalid_request' });
  });
});

describe('handler types', () => {
  it('takes the schema input and narrows the response by success and action', async () => {
    const branch = new Branch({ system: 'sys' });
    // @ts-expect-error an unknown action does not compile
    await handleContext(branch, { action: 'explode' });
    const out = await handleContext(branch, { action: 'status' });
    if (!out.success) throw new Error(out.error);
    expect(out.active_messages).toBe(1);
  });
});
