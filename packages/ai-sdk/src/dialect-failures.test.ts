// A failed dialect call through the AI SDK, as the model receives it: Anthropic's tools send an `error-text` output
// (and the Anthropic provider turns it into a tool_result with `is_error: true`, checked on the wire below); OpenAI's
// apply_patch answers with its own `failed` status and shell with `Error: …` on stderr and the exit status a shell
// reports for a command it cannot run, the only failure forms those tools define. The MCP door is tested with the
// same cases in the CLI, the plain functions in coding.
import { createAnthropic } from '@ai-sdk/anthropic';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { generateText, stepCountIs } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ScriptedCall, scriptedModel } from '../test/scripted-model.js';
import { anthropicTools } from './anthropic-tools.js';
import { openaiTools } from './openai-tools.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'app.py': 'x = 1\n' });
});
afterEach(() => ws.cleanup());

/** The output part the model was sent for one scripted call. */
async function sentFor(tools: Parameters<typeof generateText>[0]['tools'], call: ScriptedCall): Promise<unknown> {
  const model = scriptedModel([[call]]);
  await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(2) });
  const tool = (model.doGenerateCalls.at(-1)?.prompt ?? []).find((message) => message.role === 'tool');
  const part = tool?.content[0];
  return part?.type === 'tool-result' ? part.output : undefined;
}

const editor = 'str_replace_based_edit_tool';
/** A shell entry for a command bough did not run: the failure's text on stderr, exit status 126. */
const notRun = (stderr: RegExp) => ({
  stdout: '',
  stderr: expect.stringMatching(stderr),
  outcome: { type: 'exit', exitCode: 126 },
});
const cases: [string, 'anthropic' | 'openai', ScriptedCall, unknown][] = [
  [
    'a missing file',
    'anthropic',
    { toolName: editor, input: { command: 'view', path: 'absent.py' } },
    { type: 'error-text', value: 'Error: File not found' },
  ],
  [
    'an edit of an unread file',
    'anthropic',
    { toolName: editor, input: { command: 'str_replace', path: 'app.py', old_str: 'x', new_str: 'y' } },
    { type: 'error-text', value: expect.stringMatching(/^Error: .*read/i) },
  ],
  [
    'a bad view_range',
    'anthropic',
    { toolName: editor, input: { command: 'view', path: 'app.py', view_range: [2, 1] } },
    { type: 'error-text', value: expect.stringMatching(/^Error: `view_range` must be/) },
  ],
  [
    'a command bough refuses',
    'anthropic',
    { toolName: 'bash', input: { command: 'ls | wc -l' } },
    { type: 'error-text', value: expect.stringMatching(/^Error: /) },
  ],
  [
    'a patch deleting a missing file',
    'openai',
    { toolName: 'apply_patch', input: { callId: 'p', operation: { type: 'delete_file', path: 'absent.py' } } },
    { type: 'json', value: { status: 'failed', output: expect.stringMatching(/^Error: /) } },
  ],
  [
    'a program that does not exist',
    'openai',
    { toolName: 'shell', input: { action: { commands: ['no-such-program-here'] } } },
    { type: 'json', value: { output: [notRun(/^Error: \S/)] } },
  ],
  [
    'a command bough refuses, after one that ran',
    'openai',
    { toolName: 'shell', input: { action: { commands: ['ls', 'ls | wc -l'] } } },
    {
      type: 'json',
      value: { output: [expect.objectContaining({ outcome: { type: 'exit', exitCode: 0 } }), notRun(/^Error: /)] },
    },
  ],
  [
    'a shell call with no command',
    'openai',
    { toolName: 'shell', input: { action: { commands: [] } } },
    { type: 'json', value: { output: [notRun(/^Error: .*no command/)] } },
  ],
];

describe('a failed dialect call through generateText', () => {
  it.each(cases)('%s (%s)', async (_case, family, call, expected) => {
    const source = { workspaceRoot: ws.root };
    const tools = family === 'anthropic' ? anthropicTools(source) : openaiTools(source);
    expect(await sentFor(tools, call)).toEqual(expected);
  });

  it('reaches the Anthropic API as a tool_result with is_error: true and the documented text', async () => {
    const bodies: { messages: { content: unknown }[] }[] = [];
    const answers = [
      [{ type: 'tool_use', id: 'toolu_1', name: editor, input: { command: 'view', path: 'absent.py' } }],
      [{ type: 'text', text: 'done' }],
    ];
    const fetch = async (_url: unknown, init?: { body?: unknown }) => {
      bodies.push(JSON.parse(String(init?.body)));
      const content = answers[bodies.length - 1];
      const stop = bodies.length === 1 ? 'tool_use' : 'end_turn';
      const message = { id: `m${bodies.length}`, type: 'message', role: 'assistant', model: 'claude-test', content };
      const body = { ...message, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    };
    const model = createAnthropic({ apiKey: 'test', fetch: fetch as typeof globalThis.fetch })('claude-test');
    const tools = anthropicTools({ workspaceRoot: ws.root });
    await generateText({ model, tools, prompt: 'view it', stopWhen: stepCountIs(2) });
    const sent = JSON.stringify(bodies[1]?.messages.at(-1)?.content);
    expect(JSON.parse(sent)).toEqual([
      expect.objectContaining({
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: 'Error: File not found',
        is_error: true,
      }),
    ]);
  });
});
