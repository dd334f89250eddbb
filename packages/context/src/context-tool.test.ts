import { Branch, ConfigurationError } from '@bough/core';
import { branchWithCalls, describeToolConformance } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { contextProvider, createContextTool } from './context-tool.js';
import { CONTEXT_GUIDANCE } from './guidance.js';

describeToolConformance('context', {
  makeTool: () => createContextTool(new Branch({ system: 'sys' })),
  validRequest: () => ({ action: 'status' }),
  invalidRequests: [{ action: 'nope' }, { action: 'compact', mode: 'some' }, { action: 'status', bogus: 1 }, {}],
});

describe('context tool', () => {
  it('carries the guidance in its description and is branch-scoped', () => {
    const tool = createContextTool(new Branch());
    expect(tool.name).toBe('context');
    expect(tool.scope).toBe('branch');
    expect(tool.description).toContain(CONTEXT_GUIDANCE);
  });

  it('never hides the request of the call that is running', async () => {
    const branch = await branchWithCalls(2);
    branch.registerTools(contextProvider());
    const call = await branch.act({ name: 'context', arguments: { action: 'compact', summary: 'two echoes' } });
    expect(call.output).toMatchObject({ success: true, compacted: 4 });
    const roles = branch.activeMessages().map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'action_request', 'action_response']);
    expect((branch.activeMessages()[3]?.content as { call_id?: string } | undefined)?.call_id).toBe(call.id);
  });

  it('binds a clone to the clone: curating one branch leaves the other untouched', async () => {
    const source = await branchWithCalls(3);
    source.registerTools(contextProvider());
    const clone = source.clone();
    const sourceActive = [...source.activeIds()];

    const onClone = await clone.act({ name: 'context', arguments: { action: 'evict_action_results', keep_last: 0 } });
    expect(onClone.output).toMatchObject({ success: true, removed: 6 });
    expect(source.activeIds()).toEqual(sourceActive);
    expect(source.messages).toHaveLength(8);

    const cloneActive = [...clone.activeIds()];
    const onSource = await source.act({ name: 'context', arguments: { action: 'evict', start: 1, end: 3 } });
    expect(onSource.output).toMatchObject({ success: true, removed: 2 });
    expect(clone.activeIds()).toEqual(cloneActive);
    const ids = new Set(clone.messages.map((m) => m.id));
    for (const id of (onSource.output as { removed_ids: string[] }).removed_ids) expect(ids.has(id)).toBe(false);
  });
});

describe('limits', () => {
  it('throws a configuration error naming the key for a bad override, at build time', () => {
    const branch = new Branch({ system: 'sys' });
    expect(() => createContextTool(branch, { limits: { previewChars: 0 } })).toThrow(/previewChars/);
    expect(() => contextProvider({ limits: { maxListedMesages: 3 } as never })).toThrow(/maxListedMesages/);
    expect(() => createContextTool(branch, { limits: { defaultKeepLast: 1.5 } })).toThrow(ConfigurationError);
  });

  it('states the resolved limits in the description', () => {
    const tool = createContextTool(new Branch({ system: 'sys' }), {
      limits: { maxListedMessages: 7, defaultKeepLast: 0 },
    });
    expect(tool.description).toContain('at most 7 messages');
    expect(tool.description).toContain('keeps the latest 0 results');
    expect(createContextTool(new Branch({ system: 'sys' })).description).toContain('4,000 characters');
  });
});
