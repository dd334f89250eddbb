import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Branch } from './branch.js';
import { branchFromJson, branchToJson } from './branch-json.js';
import { ScriptedChatModel, textReply, toolCallReply } from './chat-model.js';
import { branchToChatMessages, TURN_CALLS_KEY, toolsToChatSpecs, turnCallIds } from './chat-transcript.js';
import { definePrompt, renderPrompt } from './resources.js';
import { defineTool } from './tool.js';

describe('ScriptedChatModel', () => {
  it('replays its script, records requests, and throws scripted errors or when exhausted', async () => {
    const model = new ScriptedChatModel([
      textReply('one'),
      (messages) => textReply(`saw ${messages.length}`),
      new Error('down'),
    ]);
    expect((await model.complete([{ role: 'user', content: 'hi' }])).text).toBe('one');
    expect(
      (
        await model.complete([
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
        ])
      ).text,
    ).toBe('saw 2');
    await expect(model.complete([])).rejects.toThrow('down');
    await expect(model.complete([])).rejects.toThrow(/no answers left/);
    expect(model.requests).toHaveLength(4);
  });
});

describe('branchToChatMessages', () => {
  it('groups action requests into one assistant turn and answers each with a tool message', async () => {
    const branch = new Branch({ system: 'sys' });
    branch.addMessage({ role: 'user', content: 'go' });
    branch.registerTools(
      defineTool({
        name: 'two',
        description: 'Returns two, for transcript tests.',
        request: z.object({}),
        handler: async () => 2,
      }),
    );
    await branch.act([
      { name: 'two', arguments: {}, id: 'c1' },
      { name: 'two', arguments: {}, id: 'c2' },
    ]);
    const chat = branchToChatMessages(branch);
    expect(chat.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(chat[2]?.toolCalls?.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(chat[3]).toMatchObject({ toolCallId: 'c1', content: '2', name: 'two' });
    expect(toolsToChatSpecs(branch.tools)[0]).toMatchObject({ name: 'two', parameters: { type: 'object' } });
    expect(toolCallReply([{ name: 'two', arguments: {} }]).toolCalls[0]?.name).toBe('two');
  });

  it("sends a failure of a tool that words its failures as that text, given the branch's tools", async () => {
    const branch = new Branch({ system: 'sys' });
    const failure = { success: false as const, error: 'Error: File not found', error_code: 'not_found' };
    branch.registerTools([
      defineTool({
        name: 'worded',
        description: 'Fails in its own words.',
        request: z.object({}),
        handler: async () => failure,
        failureText: (f) => f.error,
      }),
      defineTool({ name: 'plain', description: 'Fails plainly.', request: z.object({}), handler: async () => failure }),
    ]);
    await branch.act([
      { name: 'worded', arguments: {}, id: 'w' },
      { name: 'plain', arguments: {}, id: 'p' },
    ]);
    const tools = branchToChatMessages(branch, branch.tools).filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual(['Error: File not found', JSON.stringify(failure)]);
    // Without the tools, every output is sent as before.
    expect(branchToChatMessages(branch).filter((m) => m.role === 'tool')[0]?.content).toBe(JSON.stringify(failure));
  });
});

describe('branchToChatMessages: one assistant message per turn', () => {
  it("keeps a turn's text and its sequentially run calls in one assistant message", async () => {
    const branch = new Branch({ system: 'sys' });
    branch.addMessage({ role: 'user', content: 'go' });
    branch.registerTools(
      defineTool({ name: 'two', description: 'Returns two.', request: z.object({}), handler: async () => 2 }),
    );
    branch.addMessage({ role: 'assistant', content: 'Checking twice.', metadata: { [TURN_CALLS_KEY]: ['a', 'b'] } });
    await branch.act(
      [
        { name: 'two', arguments: {}, id: 'a' },
        { name: 'two', arguments: {}, id: 'b' },
      ],
      { strategy: 'sequential' },
    );
    branch.addMessage({ role: 'assistant', content: 'Both said 2.' });
    const chat = branchToChatMessages(branch);
    expect(chat.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(chat[2]).toMatchObject({ content: 'Checking twice.' });
    expect(chat[2]?.toolCalls?.map((c) => c.id)).toEqual(['a', 'b']);
    // Evicting one call's request leaves the turn with the other call only.
    const requestA = branch.messages.find(
      (m) => m.role === 'action_request' && (m.content as { call_id: string }).call_id === 'a',
    );
    const responseA = branch.messages.find(
      (m) => m.role === 'action_response' && (m.content as { call_id: string }).call_id === 'a',
    );
    branch.evict([requestA!.id, responseA!.id]);
    expect(branchToChatMessages(branch)[2]?.toolCalls?.map((c) => c.id)).toEqual(['b']);
  });

  it('takes the whole calls a turn holds (as the agent loop stores them), also after a JSON round trip', async () => {
    const branch = new Branch({ system: 'sys' });
    branch.registerTools(
      defineTool({ name: 'two', description: 'Returns two.', request: z.object({}), handler: async () => 2 }),
    );
    const calls = [
      { id: 'a', name: 'two', arguments: {} },
      { id: 'b', name: 'two', arguments: {} },
    ];
    branch.addMessage({ role: 'assistant', content: 'Twice.', metadata: { [TURN_CALLS_KEY]: calls } });
    await branch.act(calls, { strategy: 'sequential' });
    const turn = branch.messages.find((m) => m.role === 'assistant');
    expect(turnCallIds(turn!)).toEqual(['a', 'b']);
    const again = branchFromJson(JSON.parse(JSON.stringify(branchToJson(branch))), { tools: branch.tools });
    for (const chat of [branchToChatMessages(branch), branchToChatMessages(again)]) {
      expect(chat.map((m) => m.role)).toEqual(['system', 'assistant', 'tool', 'tool']);
      expect(chat[1]).toMatchObject({ content: 'Twice.' });
      expect(chat[1]?.toolCalls?.map((c) => c.id)).toEqual(['a', 'b']);
    }
  });
});

describe('tokens and prompts', () => {
  it('renders prompts and refuses missing values', () => {
    const prompt = definePrompt('greet', 'Hello {name}, you are {role}.');
    expect(prompt.variables).toEqual(['name', 'role']);
    expect(renderPrompt(prompt, { name: 'Ada', role: 'admin' })).toBe('Hello Ada, you are admin.');
    expect(() => renderPrompt(prompt, { name: 'Ada' })).toThrow(/role/);
  });
});
