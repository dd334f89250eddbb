import { Branch, ScriptedChatModel, textReply } from '@bough/core';
import { branchWithCalls } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { handleContext } from './handle-context.js';
import { SUMMARY_INSTRUCTION } from './prompts.js';

async function work(model?: ScriptedChatModel): Promise<Branch> {
  const branch = await branchWithCalls(2, model ? { model } : {});
  branch.addMessage({ role: 'assistant', content: 'Found the bug in parse.ts.' });
  return branch;
}

describe('context compact', () => {
  it('collapses only tool traffic in tool_io mode and puts the summary where the first one was', async () => {
    const branch = await work();
    const [system, user, , , , , thought] = branch.activeIds();
    const before = branch.messages.length;
    const out = await handleContext(branch, { action: 'compact', summary: '  Read two files; bug in parse.ts.  ' });
    expect(out).toMatchObject({ success: true, action: 'compact', compacted: 4, active: 4, total: before + 1 });
    const note = branch.messages.at(-1);
    expect(note?.role).toBe('assistant');
    expect(note?.content).toBe('[CONTEXT COMPACTION] Read two files; bug in parse.ts.');
    expect(branch.activeIds()).toEqual([system, user, note?.id, thought]);
    expect((out as { removed_ids: string[] }).removed_ids).toHaveLength(4);
    expect((out as { added_ids: string[] }).added_ids).toEqual([note?.id]);
    expect((out as { tokens_freed_est: number }).tokens_freed_est).toBeGreaterThan(0);
  });

  it('collapses the whole span in mode all, never the system message', async () => {
    const branch = await work();
    const out = await handleContext(branch, { action: 'compact', mode: 'all', start: 0, summary: 'everything' });
    expect(out).toMatchObject({ compacted: 6, active: 2 });
    expect(branch.activeMessages().map((m) => m.role)).toEqual(['system', 'assistant']);
  });

  it('fails when the span has no tool traffic in tool_io mode, or the range is empty', async () => {
    const branch = await work();
    const none = await handleContext(branch, { action: 'compact', start: 6, summary: 's' });
    expect(none).toMatchObject({ success: false, error_code: 'nothing_to_compact' });
    const empty = await handleContext(branch, { action: 'compact', start: 4, end: 4, summary: 's' });
    expect(empty).toMatchObject({ success: false, error_code: 'invalid_range' });
    expect(branch.messages).toHaveLength(7);
  });

  it('needs a summary or auto', async () => {
    const branch = await work();
    for (const summary of [undefined, '   ']) {
      const out = await handleContext(branch, { action: 'compact', summary });
      expect(out).toMatchObject({ success: false, error_code: 'summary_required' });
    }
    expect(branch.messages).toHaveLength(7);
  });

  it('prefers an explicit summary over auto and does not call the model', async () => {
    const model = new ScriptedChatModel([textReply('model summary')]);
    const branch = await work(model);
    await handleContext(branch, { action: 'compact', summary: 'mine', auto: true });
    expect(model.requests).toHaveLength(0);
    expect(branch.messages.at(-1)?.content).toBe('[CONTEXT COMPACTION] mine');
  });

  it('asks the branch model when auto is set and caps the source at 6,000 characters', async () => {
    const model = new ScriptedChatModel([textReply('  The model summary.  ')]);
    const branch = new Branch({ system: 'sys', model });
    for (let i = 0; i < 20; i += 1) branch.addMessage({ role: 'user', content: `${i} ${'y'.repeat(1_000)}` });
    const out = await handleContext(branch, { action: 'compact', mode: 'all', auto: true });
    expect(out).toMatchObject({ success: true, compacted: 20 });
    expect(branch.messages.at(-1)?.content).toBe('[CONTEXT COMPACTION] The model summary.');
    const [request] = model.requests;
    expect(request?.messages[0]?.content).toBe(SUMMARY_INSTRUCTION);
    const source = request?.messages[1]?.content ?? '';
    expect(source.length).toBeLessThanOrEqual(6_000);
    expect(source.startsWith('user: 0 ')).toBe(true);
    expect(source).toContain('user: 19 ');
  });

  it('honours a lower source cap from the options', async () => {
    const model = new ScriptedChatModel([textReply('ok')]);
    const branch = await work(model);
    await handleContext(branch, { action: 'compact', auto: true }, { limits: { autoSourceChars: 50 } });
    expect(model.requests[0]?.messages[1]?.content.length).toBeLessThanOrEqual(50);
  });

  it.each([
    ['throws', new Error('rate limited'), 'auto_summary_failed'],
    ['answers blank', textReply('   '), 'auto_summary_failed'],
  ])('fails cleanly and leaves the branch unchanged when the model %s', async (_, step, code) => {
    const model = new ScriptedChatModel([step]);
    const branch = await work(model);
    const active = [...branch.activeIds()];
    const out = await handleContext(branch, { action: 'compact', auto: true });
    expect(out).toMatchObject({ success: false, error_code: code });
    expect(branch.messages).toHaveLength(7);
    expect(branch.activeIds()).toEqual(active);
  });

  it('fails with no_model when auto is set and the branch has no model', async () => {
    const branch = await work();
    const out = await handleContext(branch, { action: 'compact', auto: true });
    expect(out).toMatchObject({ success: false, error_code: 'no_model' });
  });
});
