import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { Branch, ScriptedChatModel, textReply, toolCallReply } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../test/helpers.js';
import { runAgent } from './agent-loop.js';
import { STANDARD_SOURCES } from './tool-sources.js';

const sources = STANDARD_SOURCES;
let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\n', 'sub/s.txt': 'inner\n' });
});
afterEach(() => ws.cleanup());

describe('runAgent', () => {
  it('runs tool turns until the model answers, counting real tool calls', async () => {
    const model = new ScriptedChatModel([
      toolCallReply([{ name: 'reader', arguments: { action: 'read', path: 'a.txt' } }]),
      toolCallReply([
        { name: 'editor', arguments: { action: 'edit', file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' } },
        { name: 'reader', arguments: { action: 'read', path: 'a.txt' } },
      ]),
      textReply('changed alpha to beta'),
    ]);
    const branch = toolkitBranch(ws.root, { tools: ['reader', 'editor'], notify: false }, { sources, model });
    const result = await runAgent(branch, 'rename alpha', { maxTurns: 5 });
    expect(result).toEqual({ text: 'changed alpha to beta', turns: 3, toolCalls: 3, stopped: 'answer' });
    expect(readFileSync(ws.path('a.txt'), 'utf8')).toBe('beta\n');
    expect(model.requests[0]?.options.tools?.map((tool) => tool.name)).toEqual(['reader', 'editor']);
    expect(model.requests[0]?.messages.at(-1)).toMatchObject({ role: 'user', content: 'rename alpha' });
    expect(model.requests[2]?.messages.filter((m) => m.role === 'tool')).toHaveLength(3);
    // the scripted model reuses ids like call_0_reader on every turn; the branch still gets unique ones
    const ids = branch.messages
      .filter((m) => m.role === 'action_request')
      .map((m) => (m.content as { call_id: string }).call_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('stops at the turn budget', async () => {
    const model = new ScriptedChatModel(
      Array.from({ length: 5 }, () =>
        toolCallReply([{ name: 'reader', arguments: { action: 'read', path: 'a.txt' } }]),
      ),
    );
    const branch = toolkitBranch(ws.root, { tools: ['reader'], notify: false }, { sources, model });
    expect(await runAgent(branch, 'loop', { maxTurns: 2 })).toMatchObject({
      turns: 2,
      toolCalls: 2,
      stopped: 'max_turns',
    });
  });

  it('reports model errors and aborts', async () => {
    const failing = new Branch({ model: new ScriptedChatModel([new Error('rate limited')]) });
    expect(await runAgent(failing, 'x')).toMatchObject({ stopped: 'model_error', error: 'rate limited', turns: 1 });
    const controller = new AbortController();
    controller.abort();
    const aborted = new Branch({ model: new ScriptedChatModel([textReply('never')]) });
    expect(await runAgent(aborted, 'x', { signal: controller.signal })).toMatchObject({ stopped: 'aborted', turns: 0 });
    expect(await runAgent(new Branch(), 'x')).toMatchObject({ stopped: 'model_error' });
  });
});

describe('runAgent: a faithful transcript', () => {
  it("sends a turn's text and its calls back as one assistant message, and answers malformed JSON with where", async () => {
    const model = new ScriptedChatModel([
      {
        text: 'Let me look at both.',
        toolCalls: [
          { id: 'c1', name: 'reader', arguments: { action: 'read', path: 'a.txt' } },
          {
            id: 'c2',
            name: 'reader',
            arguments: '{"action": "read", path',
            argumentsError: 'Expected a string at position 19',
          },
        ],
      },
      textReply('done'),
    ]);
    const branch = toolkitBranch(ws.root, { tools: ['reader'], notify: false }, { sources, model });
    const result = await runAgent(branch, 'look');
    expect(result).toMatchObject({ stopped: 'answer', toolCalls: 2 });
    const second = model.requests[1]?.messages ?? [];
    const assistants = second.filter((m) => m.role === 'assistant');
    expect(assistants).toHaveLength(1);
    expect(assistants[0]).toMatchObject({ content: 'Let me look at both.' });
    expect(assistants[0]?.toolCalls?.map((c) => c.id)).toEqual(['c1', 'c2']);
    const bad = second.find((m) => m.role === 'tool' && m.toolCallId === 'c2');
    expect(bad?.content).toMatch(/not valid JSON \(Expected a string at position 19\)/);
    expect(second.find((m) => m.role === 'tool' && m.toolCallId === 'c1')?.content).toContain('alpha');
  });
});

describe('subagent tool', () => {
  const tools = ['reader', 'editor', 'subagent'];

  it('runs a read_only child with fresh state on the parent model and returns its answer and tool count', async () => {
    const model = new ScriptedChatModel([
      toolCallReply([{ name: 'subagent', arguments: { instruction: 'look at a.txt' } }]),
      toolCallReply([
        { name: 'reader', arguments: { action: 'read', path: 'a.txt' } },
        { name: 'editor', arguments: { action: 'write', file_path: 'evil.txt', content: 'x' } },
      ]),
      textReply('a.txt says alpha'),
      textReply('the subagent says alpha'),
    ]);
    const parent = toolkitBranch(ws.root, { tools, notify: false }, { sources, model });
    const result = await runAgent(parent, 'delegate');
    expect(result).toMatchObject({ text: 'the subagent says alpha', toolCalls: 1, stopped: 'answer' });
    const output = parent.messages.find((m) => m.role === 'action_response')?.content as {
      output: Record<string, unknown>;
    };
    expect(output.output).toMatchObject({ success: true, response: 'a.txt says alpha', tool_calls: 2, turns: 2 });
    expect(existsSync(ws.path('evil.txt'))).toBe(false);
    // the child's read gave the parent no right to edit
    expect(
      await call(parent, 'editor', { action: 'edit', file_path: 'a.txt', old_string: 'alpha', new_string: 'x' }),
    ).toMatchObject({
      error_code: 'not_read',
    });
  });

  it('contains cwd in the workspace and works inside it', async () => {
    const model = new ScriptedChatModel([
      toolCallReply([{ name: 'reader', arguments: { action: 'read', path: 's.txt' } }]),
      textReply('x'.repeat(6_000)),
    ]);
    const parent = toolkitBranch(ws.root, { tools, notify: false }, { sources, model });
    symlinkSync(ws.outside, ws.path('out-link'));
    symlinkSync(ws.path('sub'), ws.path('in-link'));
    for (const cwd of [
      '..',
      '../ws-evil',
      ws.outside,
      '/etc',
      'out-link',
      'in-link',
      'sub/../../ws-evil',
      '/proc/self/cwd',
    ]) {
      const refused = await call(parent, 'subagent', { instruction: 'x', cwd });
      expect(refused.success, cwd).toBe(false);
      expect(JSON.stringify(refused)).not.toContain('OUTSIDE-SECRET-CANARY');
    }
    expect(JSON.stringify(await call(parent, 'subagent', { instruction: 'x', cwd: 'out-link' }))).not.toContain(
      'ws-evil',
    );
    expect(await call(parent, 'subagent', { instruction: 'x', cwd: 'a.txt' })).toMatchObject({ success: false });
    const ok = await call(parent, 'subagent', { instruction: 'read s.txt', cwd: 'sub' });
    expect(ok).toMatchObject({ success: true, tool_calls: 1, response_truncated: true });
    expect((ok.response as string).length).toBeLessThan(5_100);
  });

  it('never grants a child more than the parent preset, and reports model errors as typed failures', async () => {
    const parent = toolkitBranch(
      ws.root,
      { tools, notify: false, permissions: { allow: { '*': ['*'] } } },
      {
        sources,
        model: new ScriptedChatModel([new Error('model down')]),
      },
    );
    expect(await call(parent, 'subagent', { instruction: 'x', permissions: 'safe' })).toMatchObject({
      error_code: 'permission_escalation',
    });
    expect(await call(parent, 'subagent', { instruction: 'x' })).toMatchObject({
      success: false,
      error_code: 'model_error',
    });
    expect(await call(parent, 'subagent', { instruction: 'x', max_turns: 51 })).toMatchObject({
      error_code: 'invalid_request',
    });
    const noModel = toolkitBranch(ws.root, { tools, notify: false }, { sources });
    expect(await call(noModel, 'subagent', { instruction: 'x' })).toMatchObject({ error_code: 'no_model' });
  });
});
