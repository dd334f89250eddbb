import { createRequire } from 'node:module';
import { Branch, ScriptedChatModel, textReply } from '@bough/core';
import { branchWithCalls } from '@bough/test-utils';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { handleContext } from './handle-context.js';
import { DEFAULT_CONTEXT_LIMITS } from './limits.js';
import {
  type ContextInput,
  type ContextRequest,
  ContextRequest as ContextRequestSchema,
  type ContextResponse,
} from './schema.js';

function chat(n: number): Branch {
  const branch = new Branch({ system: 'sys' });
  for (let i = 0; i < n; i += 1) branch.addMessage({ role: 'user', content: `m${i}` });
  return branch;
}

const snapshot = (branch: Branch) => ({ active: [...branch.activeIds()], total: branch.messages.length });

describe('context with hostile numbers', () => {
  it.each([
    [{ action: 'evict', start: Number.NaN }],
    [{ action: 'evict', start: Number.POSITIVE_INFINITY }],
    [{ action: 'evict', end: Number.NEGATIVE_INFINITY }],
    [{ action: 'evict', start: 2 ** 53 }],
    [{ action: 'evict', start: 1e300 }],
    [{ action: 'evict', start: -1 }],
    [{ action: 'evict', start: '1' }],
    [{ action: 'restore', start: 0.5 }],
    [{ action: 'evict_action_results', keep_last: Number.NaN }],
    [{ action: 'evict_action_results', keep_last: 1e300 }],
    [{ action: 'compact', start: { valueOf: (): number => 1 } }],
  ])('refuses %j as invalid_request and changes nothing', async (request) => {
    const branch = chat(3);
    const before = snapshot(branch);
    expect(await handleContext(branch, request as ContextInput)).toMatchObject({
      success: false,
      error_code: 'invalid_request',
    });
    expect(snapshot(branch)).toEqual(before);
  });

  it('clamps the largest safe integers instead of failing or looping', async () => {
    const branch = chat(3);
    const max = Number.MAX_SAFE_INTEGER;
    expect(await handleContext(branch, { action: 'get_messages', start: 0, end: max })).toMatchObject({
      success: true,
      range: '[0:4] of 4',
    });
    expect(await handleContext(branch, { action: 'get_messages', start: max })).toMatchObject({
      success: true,
      messages: [],
    });
    expect(await handleContext(branch, { action: 'evict', start: 2, end: max })).toMatchObject({ removed: 2 });
    expect(await handleContext(branch, { action: 'restore', start: 0, end: max })).toMatchObject({ restored: 2 });
    const keepAll = await handleContext(branch, { action: 'evict_action_results', keep_last: max });
    expect(keepAll).toMatchObject({ success: true, removed: 0 });
    const keepNone = await handleContext(branch, { action: 'evict_action_results', keep_last: -max });
    expect(keepNone).toMatchObject({ success: true, removed: 0 });
  });
});

describe('context ranges past the end and the system message', () => {
  it('fails evict and compact past the end, leaving the branch alone', async () => {
    const branch = chat(2);
    const before = snapshot(branch);
    for (const request of [
      { action: 'evict', start: 3, end: 10 },
      { action: 'compact', start: 3, end: 10, summary: 's', mode: 'all' },
    ]) {
      expect(await handleContext(branch, request as ContextInput)).toMatchObject({
        success: false,
        error_code: 'invalid_range',
      });
    }
    expect(snapshot(branch)).toEqual(before);
  });

  it('clamps get_messages and restore windows (ADR D3): an empty clamped window is a successful empty result', async () => {
    const branch = chat(2);
    branch.evict([branch.messages[1]?.id as string]);
    const before = snapshot(branch);
    const negative = await handleContext(branch, { action: 'get_messages', start: -5 });
    expect(negative).toMatchObject({ success: true, range: '[0:2] of 2' });
    expect((negative as { messages: string[] }).messages).toHaveLength(2);
    expect(await handleContext(branch, { action: 'get_messages', start: -5, end: -1 })).toMatchObject({
      success: true,
      messages: [],
    });
    expect(await handleContext(branch, { action: 'get_messages', start: 500, end: 600, scope: 'all' })).toMatchObject({
      success: true,
      messages: [],
    });
    expect(await handleContext(branch, { action: 'restore', start: 500, end: 600 })).toMatchObject({
      success: true,
      restored: 0,
      added_ids: [],
    });
    expect(await handleContext(branch, { action: 'restore', start: -5, end: 0 })).toMatchObject({
      success: true,
      restored: 0,
    });
    expect(snapshot(branch)).toEqual(before);
    expect(await handleContext(branch, { action: 'restore', start: -5, end: 99 })).toMatchObject({ restored: 1 });
  });

  it('never hides the system message, even when asked for exactly [0:1), and says why', async () => {
    const branch = chat(2);
    const system = branch.messages[0]?.id as string;
    const out = await handleContext(branch, { action: 'evict', start: 0, end: 1 });
    expect(out).toMatchObject({ success: false, error_code: 'invalid_range' });
    expect((out as { error: string }).error).toMatch(/system message/);
    const all = await handleContext(branch, { action: 'compact', start: 0, mode: 'all', summary: 'gone' });
    expect(all).toMatchObject({ success: true, compacted: 2 });
    expect(branch.activeIds()[0]).toBe(system);
    expect(branch.isActive(system)).toBe(true);
  });

  it('restoring messages that are already active is a successful no-op', async () => {
    const branch = chat(3);
    const before = snapshot(branch);
    const out = await handleContext(branch, { action: 'restore', start: 0, end: 4 });
    expect(out).toMatchObject({ success: true, restored: 0, added_ids: [] });
    expect(snapshot(branch)).toEqual(before);
  });

  it('restores into the right place when the system message was itself hidden by a program', async () => {
    const branch = chat(2);
    branch.evict([branch.messages[0]?.id as string]);
    await handleContext(branch, { action: 'restore', start: 0 });
    expect(branch.activeMessages().map((m) => m.role)).toEqual(['system', 'user', 'user']);
  });
});

describe('context compact edge cases', () => {
  it('refuses an empty span and a span without tool traffic, and changes nothing', async () => {
    const branch = await branchWithCalls(1);
    const before = snapshot(branch);
    expect(await handleContext(branch, { action: 'compact', start: 2, end: 2, summary: 's' })).toMatchObject({
      error_code: 'invalid_range',
    });
    expect(await handleContext(branch, { action: 'compact', start: 1, end: 2, summary: 's' })).toMatchObject({
      error_code: 'nothing_to_compact',
    });
    expect(snapshot(branch)).toEqual(before);
    const empty = new Branch({ system: 'only' });
    expect(await handleContext(empty, { action: 'compact', summary: 's', mode: 'all' })).toMatchObject({
      error_code: 'invalid_range',
    });
  });

  it('refuses a 1 MB summary (summary_too_long) and keeps the record unchanged', async () => {
    const branch = await branchWithCalls(2);
    const before = snapshot(branch);
    const out = await handleContext(branch, { action: 'compact', summary: 'x'.repeat(1_000_000) });
    expect(out).toMatchObject({ success: false, error_code: 'summary_too_long' });
    expect((out as { error: string }).error).toContain(String(DEFAULT_CONTEXT_LIMITS.maxSummaryChars));
    expect(snapshot(branch)).toEqual(before);
  });

  it('refuses an auto summary longer than the limit the same way', async () => {
    const model = new ScriptedChatModel([textReply('y'.repeat(50))]);
    const branch = await branchWithCalls(2, { model });
    const before = snapshot(branch);
    const out = await handleContext(branch, { action: 'compact', auto: true }, { limits: { maxSummaryChars: 10 } });
    expect(out).toMatchObject({ success: false, error_code: 'summary_too_long' });
    expect(snapshot(branch)).toEqual(before);
  });

  it('works from the active view as it is after the model answers, not a stale copy', async () => {
    let branch: Branch | undefined;
    let late = '';
    let evicted = '';
    const model = new ScriptedChatModel([
      () => {
        // While the model "thinks", the program adds a message and hides one of the span's results.
        const b = branch as Branch;
        late = b.addMessage({ role: 'user', content: 'arrived during the summary' }).id;
        evicted = b.activeMessages().filter((m) => m.role === 'action_response')[0]?.id as string;
        b.evict([evicted]);
        return textReply('summary');
      },
    ]);
    branch = await branchWithCalls(2, { model });
    const out = await handleContext(branch, { action: 'compact', auto: true });
    expect(out).toMatchObject({ success: true, compacted: 3 });
    expect(branch.isActive(late)).toBe(true);
    expect(branch.isActive(evicted)).toBe(false);
    expect(branch.activeMessages().map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });
});

describe('context status cost and types', () => {
  it('counts tokens once per message: a second status on 10,000 messages encodes nothing', async () => {
    // The encoder tokens.ts loads (resolved from this package, so the spy sees the same module instance).
    const fromHere = createRequire(import.meta.url);
    const encoder = fromHere('gpt-tokenizer/encoding/o200k_base') as {
      countTokens(text: string): number;
    };
    const branch = chat(9_999);
    await handleContext(branch, { action: 'status' });
    const spy = vi.spyOn(encoder, 'countTokens');
    try {
      expect(await handleContext(branch, { action: 'status' })).toMatchObject({ active_messages: 10_000 });
      expect(spy).not.toHaveBeenCalled();
      branch.addMessage({ role: 'user', content: 'a new message is counted once' });
      await handleContext(branch, { action: 'status' });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('exposes closed enums in the request type and a discriminated response', () => {
    expectTypeOf<ContextRequest['mode']>().toEqualTypeOf<'tool_io' | 'all'>();
    expectTypeOf<ContextRequest['scope']>().toEqualTypeOf<'active' | 'all'>();
    expectTypeOf<ContextRequest['action']>().toEqualTypeOf<
      'status' | 'get_messages' | 'evict' | 'evict_action_results' | 'restore' | 'compact'
    >();
    expectTypeOf<ContextResponse['success']>().toEqualTypeOf<boolean>();
    // The enums are closed at run time too.
    expect(ContextRequestSchema.safeParse({ action: 'nope' }).success).toBe(false);
    expect(ContextRequestSchema.safeParse({ action: 'compact', mode: 'some' }).success).toBe(false);
  });
});
