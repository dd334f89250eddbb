import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Branch, type ChatToolSpec, ConfigurationError, defineTool } from '@bough/core';
import {
  completionBody,
  type FakeOpenAI,
  type FakeStep,
  sseAnswer,
  startFakeOpenAI,
  wireToolCall,
} from '@bough/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AiSdkChatModel, AiSdkChatModelError, type AiSdkChatModelOptions, type RetryNotice } from './chat-model.js';

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tools: ChatToolSpec[] = [
  {
    name: 'reader',
    description: 'Reads a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
];

async function modelFor(steps: FakeStep[], options: AiSdkChatModelOptions = {}) {
  server = await startFakeOpenAI(steps);
  const provider = createOpenAICompatible({ name: 'fake', baseURL: server.url, apiKey: 'sk-secret-key' });
  // Short waits keep the tests quick; the retry logic is the shipped one.
  return new AiSdkChatModel(provider('fake-model'), { initialRetryDelayMs: 5, maxRetryDelayMs: 20, ...options });
}

const user = [{ role: 'user' as const, content: 'hi' }];

describe('AiSdkChatModel over @ai-sdk/openai-compatible', () => {
  it('streams text to onText as it arrives and returns text plus tool calls of one answer', async () => {
    const deltas: string[] = [];
    const model = await modelFor(
      [{ sse: sseAnswer(['Let me ', 'look.'], [{ id: 'c1', name: 'reader', args: { path: 'a.txt' } }]) }],
      {
        onText: (delta) => deltas.push(delta),
      },
    );
    const answer = await model.complete(user, { tools });
    expect(deltas).toEqual(['Let me ', 'look.']);
    expect(answer).toEqual({
      text: 'Let me look.',
      toolCalls: [{ id: 'c1', name: 'reader', arguments: { path: 'a.txt' } }],
    });
    const request = server!.requests[0]!;
    expect(request.body.stream).toBe(true);
    expect(request.body.tools?.map((tool) => tool.function.name)).toEqual(['reader']);
    expect(request.headers.authorization).toBe('Bearer sk-secret-key');
  });

  it('reads plain JSON answers with stream: false', async () => {
    const model = await modelFor(
      [{ json: completionBody({ content: 'Reading.', tool_calls: [wireToolCall('c9', 'reader', { path: 'b' })] }) }],
      { stream: false },
    );
    expect(await model.complete(user, { tools })).toEqual({
      text: 'Reading.',
      toolCalls: [{ id: 'c9', name: 'reader', arguments: { path: 'b' } }],
    });
    expect(server!.requests[0]!.body.stream).not.toBe(true);
  });

  it('sends an assistant turn with text and calls as one message, and tool results after it', async () => {
    const model = await modelFor([{ sse: sseAnswer(['ok']) }]);
    await model.complete([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'Looking.',
        toolCalls: [
          { id: 'c1', name: 'reader', arguments: { path: 'a' } },
          { id: 'c2', name: 'reader', arguments: '{"path": ' },
        ],
      },
      { role: 'tool', content: 'alpha', toolCallId: 'c1', name: 'reader' },
      { role: 'tool', content: 'bad json', toolCallId: 'c2', name: 'reader' },
    ]);
    const wire = server!.requests[0]!.body.messages;
    expect(wire.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(wire[2]).toMatchObject({ content: 'Looking.' });
    expect(wire[2]!.tool_calls!.map((c) => [c.id, c.function.arguments])).toEqual([
      ['c1', '{"path":"a"}'],
      ['c2', '{}'],
    ]);
  });

  it('marks malformed tool-argument JSON with what was wrong and where', async () => {
    const model = await modelFor([
      { sse: sseAnswer([], [{ id: 'c1', name: 'reader', args: '{"action": "read", path' }]) },
    ]);
    const answer = await model.complete(user, { tools });
    const call = answer.toolCalls[0]!;
    expect(call.arguments).toBe('{"action": "read", path');
    expect(call.argumentsError).toMatch(/position 19/);
    expect(call.argumentsError).toContain('"{\\"action\\": \\"read\\", "');
  });

  it('retries a 429, waiting what Retry-After asks, then succeeds', async () => {
    const notices: RetryNotice[] = [];
    const model = await modelFor(
      [
        { json: { error: { message: 'slow down' } }, status: 429, headers: { 'retry-after': '0' } },
        { sse: sseAnswer(['fine']) },
      ],
      { onRetry: (notice) => notices.push(notice), initialRetryDelayMs: 60_000, maxRetryDelayMs: 60_000 },
    );
    // The backoff alone would wait a minute: the answer arriving proves Retry-After: 0 was honoured.
    expect((await model.complete(user)).text).toBe('fine');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ retry: 1, delayMs: 0 });
    expect(notices[0]!.error).toMatchObject({ kind: 'http_error', status: 429 });
  });

  it('retries a 500 and a dropped connection, then succeeds', async () => {
    const notices: RetryNotice[] = [];
    const model = await modelFor(
      [
        { json: { error: { message: 'boom' } }, status: 500 },
        { drop: sseAnswer(['half']).slice(0, 1) },
        { sse: sseAnswer(['whole']) },
      ],
      { onRetry: (notice) => notices.push(notice) },
    );
    expect((await model.complete(user)).text).toBe('whole');
    expect(notices.map((n) => [n.error.kind, n.delayMs, n.discardedText])).toEqual([
      ['http_error', 5, false],
      ['network', 10, true],
    ]);
  });

  it('gives up after maxRetries and says how many tries it made; 4xx is not retried', async () => {
    const model = await modelFor(
      [500, 502, 503].map((status) => ({ json: { error: { message: `down ${status}` } }, status })),
      { maxRetries: 2 },
    );
    const error = (await model.complete(user).catch((e) => e)) as AiSdkChatModelError;
    expect(error).toBeInstanceOf(AiSdkChatModelError);
    expect(error).toMatchObject({ kind: 'http_error', status: 503, tries: 3 });
    expect(error.message).toMatch(/HTTP 503: down 503/);
    expect(error.message).not.toContain('sk-secret-key');
    await server!.close();
    const bad = await modelFor([{ json: { error: { message: 'no such model' } }, status: 404 }]);
    expect(await bad.complete(user).catch((e) => e)).toMatchObject({ kind: 'http_error', status: 404, tries: 1 });
  });

  it('refuses a Retry-After longer than maxRetryAfterMs instead of waiting', async () => {
    const model = await modelFor([
      { json: { error: { message: 'quota' } }, status: 429, headers: { 'retry-after': '3600' } },
    ]);
    const error = await model.complete(user).catch((e) => e);
    expect(error.message).toMatch(/asked to wait 3600 s/);
  });

  it('reports garbage as a malformed response without retrying', async () => {
    const model = await modelFor([{ raw: 'data: {not json\n\n' }]);
    const error = await model.complete(user).catch((e) => e);
    expect(error).toMatchObject({ kind: 'malformed_response', tries: 1 });
  });

  it('abandons a hung request after requestTimeoutMs, and stops at once on abort', async () => {
    const model = await modelFor([{ hang: true }, { hang: true }], { requestTimeoutMs: 200 });
    expect(await model.complete(user).catch((e) => e)).toMatchObject({ kind: 'timeout', tries: 1 });
    const controller = new AbortController();
    const pending = model.complete(user, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 50);
    expect(await pending.catch((e) => e)).toMatchObject({ kind: 'aborted' });
  });

  it('names an unreachable server as a network failure after its retries', async () => {
    const model = await modelFor([], { maxRetries: 1 });
    const url = server!.url;
    await server!.close();
    server = undefined;
    const provider = createOpenAICompatible({ name: 'fake', baseURL: url });
    const offline = new AiSdkChatModel(provider('m'), { maxRetries: 1, initialRetryDelayMs: 1 });
    expect(model).toBeDefined();
    const error = await offline.complete(user).catch((e) => e);
    expect(error).toMatchObject({ kind: 'network', tries: 2 });
    expect(error.message).toMatch(/Could not reach/);
  });

  it('refuses a model that is not a language model object, and bad limits', () => {
    expect(() => new AiSdkChatModel('openai/gpt-4.1' as never)).toThrow(ConfigurationError);
    const provider = createOpenAICompatible({ name: 'fake', baseURL: 'http://127.0.0.1:9/v1' });
    // The one timeout rule: 0 means the default; a value that is not a number at all is refused.
    expect(() => new AiSdkChatModel(provider('m'), { requestTimeoutMs: 0 })).not.toThrow();
    expect(() => new AiSdkChatModel(provider('m'), { requestTimeoutMs: 'soon' as never })).toThrow(/requestTimeoutMs/);
    expect(() => new AiSdkChatModel(provider('m'), { maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => new AiSdkChatModel(provider('m'), { maxRetries: 1.5 })).toThrow(ConfigurationError);
  });

  it('drives a Branch: the model sees the tool and its result', async () => {
    const model = await modelFor([
      { sse: sseAnswer([], [{ id: 'c1', name: 'echo', args: { text: 'pong' } }]) },
      (request) => ({ sse: sseAnswer([String(request.body.messages.at(-1)?.content)]) }),
    ]);
    const branch = new Branch({ model });
    branch.registerTools(
      defineTool({
        name: 'echo',
        description: 'Echoes.',
        request: z.object({ text: z.string() }),
        handler: async ({ text }) => text,
      }),
    );
    const first = await model.complete([{ role: 'user', content: 'ping' }], {
      tools: [{ name: 'echo', description: 'Echoes.', parameters: {} }],
    });
    const done = await branch.act(first.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments, id: c.id })));
    const second = await model.complete([
      { role: 'user', content: 'ping' },
      { role: 'assistant', content: '', toolCalls: first.toolCalls },
      { role: 'tool', content: String(done[0]!.output), toolCallId: 'c1', name: 'echo' },
    ]);
    expect(second.text).toBe('pong');
  });
});
