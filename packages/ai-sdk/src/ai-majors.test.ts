// The adapter with every supported AI SDK major: ai 5 (provider specification v2), ai 6 (v3) and ai 7 (v4), each with
// its own `@ai-sdk/openai-compatible` against a local fake server and its own mock model. ai 7 needs Node 22 or newer,
// so its cases are skipped on older Node with the reason printed.
import { createOpenAICompatible as openAiCompatibleV3 } from '@ai-sdk/openai-compatible';
import { defineTool } from '@bough/core';
import { type FakeOpenAI, sseAnswer, startFakeOpenAI } from '@bough/test-utils';
import * as ai6 from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import * as ai5 from 'ai5';
import { MockLanguageModelV2 } from 'ai5/test';
import { createOpenAICompatible as openAiCompatibleV2 } from 'openai-compatible-1';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AiSdkChatModel } from './chat-model.js';
import type { AiSdkLanguageModel } from './language-model.js';
import { toAiSdkTool } from './to-ai-sdk-tool.js';

const nodeMajor = Number(process.versions.node.split('.')[0]);
const ai7Runs = nodeMajor >= 22;
if (!ai7Runs) console.info(`ai 7 cases skipped: ai 7 needs Node >= 22, this is Node ${process.versions.node}.`);

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Provider = (baseURL: string) => AiSdkLanguageModel;

/** Each major's openai-compatible provider: the models a user of that major makes. */
const providers: [string, 'v2' | 'v3' | 'v4', () => Promise<Provider>, boolean][] = [
  ['ai 5', 'v2', async () => (baseURL) => openAiCompatibleV2({ name: 'fake', baseURL })('m'), true],
  ['ai 6', 'v3', async () => (baseURL) => openAiCompatibleV3({ name: 'fake', baseURL })('m'), true],
  [
    'ai 7',
    'v4',
    async () => {
      const { createOpenAICompatible } = await import('openai-compatible-3');
      return (baseURL) => createOpenAICompatible({ name: 'fake', baseURL })('m');
    },
    ai7Runs,
  ],
];

describe.each(providers)('AiSdkChatModel with %s (specification %s)', (_major, spec, load, runs) => {
  it.skipIf(!runs)('streams text and a tool call, and reads a plain JSON answer', async () => {
    const make = await load();
    server = await startFakeOpenAI([
      { sse: sseAnswer(['Let me ', 'look.'], [{ id: 'c1', name: 'reader', args: { path: 'a.txt' } }]) },
      { json: { choices: [{ message: { role: 'assistant', content: 'Plain.' }, finish_reason: 'stop' }] } },
    ]);
    const language = make(server.url);
    expect(language.specificationVersion).toBe(spec);
    const deltas: string[] = [];
    const streamed = new AiSdkChatModel(language, { onText: (delta) => deltas.push(delta) });
    const tools = [{ name: 'reader', description: 'Reads.', parameters: { type: 'object' } }];
    expect(await streamed.complete([{ role: 'user', content: 'hi' }], { tools })).toEqual({
      text: 'Let me look.',
      toolCalls: [{ id: 'c1', name: 'reader', arguments: { path: 'a.txt' } }],
    });
    expect(deltas).toEqual(['Let me ', 'look.']);
    const plain = new AiSdkChatModel(language, { stream: false });
    expect(await plain.complete([{ role: 'user', content: 'again' }])).toEqual({ text: 'Plain.', toolCalls: [] });
  });

  it.skipIf(!runs)("recognises the major's HTTP errors: a 500 is retried, a 404 is not", async () => {
    const make = await load();
    server = await startFakeOpenAI([
      { json: { error: { message: 'boom' } }, status: 500 },
      { sse: sseAnswer(['fine']) },
      { json: { error: { message: 'no such model' } }, status: 404 },
    ]);
    const model = new AiSdkChatModel(make(server.url), { initialRetryDelayMs: 1 });
    expect((await model.complete([{ role: 'user', content: 'hi' }])).text).toBe('fine');
    const error = await model.complete([{ role: 'user', content: 'hi' }]).catch((e) => e);
    expect(error).toMatchObject({ kind: 'http_error', status: 404, tries: 1 });
    expect(error.message).toContain('no such model');
  });
});

it('refuses a language model of a specification it does not know, naming the one it got', () => {
  const future = { specificationVersion: 'v5', provider: 'x', modelId: 'm' };
  expect(() => new AiSdkChatModel(future as never)).toThrow(/v2, v3 or v4.*says v5/);
});

// Adapted tools inside each major's generateText. The results are typed: once a result is known not to come from a
// dynamic tool (the SDK's own narrowing), `input` is the request type and `output` narrows on `success` with no cast,
// which `pnpm typecheck` checks for each major.
const weather = defineTool({
  name: 'weather',
  description: 'Looks up the weather for a city.',
  request: z.object({ city: z.string() }).strict(),
  handler: async ({ city }) => ({ success: true as const, forecast: `Sunny in ${city}` }),
});
/** What a program does with a step's typed calls and results: the same code compiles against every major. */
function forecasts<
  STEP extends {
    toolCalls: readonly ({ dynamic: true } | { dynamic?: false; input: { city: string } })[];
    toolResults: readonly (
      | { dynamic: true }
      | { dynamic?: false; output: { success: true; forecast: string } | { success: false; error_code: string } }
    )[];
  },
>(step: STEP): string[] {
  const cities = step.toolCalls.map((c) => (c.dynamic ? '?' : c.input.city));
  return step.toolResults.map((r, i) =>
    r.dynamic ? '?' : `${cities[i]}: ${r.output.success ? r.output.forecast : r.output.error_code}`,
  );
}

const call = { type: 'tool-call' as const, toolCallId: 'call_1', toolName: 'weather', input: '{"city":"Oslo"}' };
const text = { type: 'text' as const, text: 'Done.' };
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const turn = (content: (typeof call | typeof text)[], unified: 'tool-calls' | 'stop') => ({
  content,
  finishReason: { unified, raw: undefined },
  usage,
  warnings: [],
});

describe('adapted tools in generateText, typed', () => {
  it('ai 5', async () => {
    const usage5 = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    const mock = new MockLanguageModelV2({
      doGenerate: async (options) => ({
        content: options.prompt.some((m) => m.role === 'tool') ? [text] : [call],
        finishReason: options.prompt.some((m) => m.role === 'tool') ? 'stop' : 'tool-calls',
        usage: usage5,
        warnings: [],
      }),
    });
    // ai 5's ToolSet type admits only zod schemas and schemas marked with its own unique symbol, which our declared
    // type cannot name: with ai 5 the tools go in as a ToolSet (the README says so), and run as with 6 and 7.
    const tools = { weather: toAiSdkTool(weather) } as unknown as ai5.ToolSet;
    const result = await ai5.generateText({ model: mock, tools, prompt: 'Oslo?', stopWhen: ai5.stepCountIs(3) });
    expect(result.steps[0]!.toolCalls[0]!.input).toEqual({ city: 'Oslo' });
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({ success: true, forecast: 'Sunny in Oslo' });
    expect(new AiSdkChatModel(mock).name).toBe('mock-model-id');
  });

  it('ai 6', async () => {
    const mock = new MockLanguageModelV3({ doGenerate: [turn([call], 'tool-calls'), turn([text], 'stop')] });
    const tools = { weather: toAiSdkTool(weather) };
    const result = await ai6.generateText({ model: mock, tools, prompt: 'Oslo?', stopWhen: ai6.stepCountIs(3) });
    expect(forecasts(result.steps[0]!)).toEqual(['Oslo: Sunny in Oslo']);
    expect(new AiSdkChatModel(mock).name).toBe('mock-model-id');
  });

  it.skipIf(!ai7Runs)('ai 7', async () => {
    const ai7 = await import('ai7');
    const { MockLanguageModelV4 } = await import('ai7/test');
    const mock = new MockLanguageModelV4({ doGenerate: [turn([call], 'tool-calls'), turn([text], 'stop')] });
    const tools = { weather: toAiSdkTool(weather) };
    const result = await ai7.generateText({ model: mock, tools, prompt: 'Oslo?', stopWhen: ai7.isStepCount(3) });
    expect(forecasts(result.steps[0]!)).toEqual(['Oslo: Sunny in Oslo']);
    expect(new AiSdkChatModel(mock).name).toBe('mock-model-id');
  });
});

// A failure reaches the model as the major's error output: ai 5 calls toModelOutput with the output itself, ai 6 and
// 7 with { toolCallId, input, output }; one adapted tool serves all three.
const noForecast = defineTool({
  name: 'weather',
  description: 'Looks up the weather for a city.',
  request: z.object({ city: z.string() }).strict(),
  handler: async () => ({ success: false as const, error: 'No forecast for Oslo.', error_code: 'not_found' as const }),
});
const failureSent = { type: 'error-text', value: 'Error (not_found): No forecast for Oslo.' };
type Prompted = { prompt: readonly { role: string; content: unknown }[] };
/** The output part of the tool result in the last prompt a mock model received. */
function sentOutput(calls: readonly Prompted[]): unknown {
  const tool = calls.at(-1)?.prompt.find((message) => message.role === 'tool');
  return (tool?.content as { output?: unknown }[] | undefined)?.[0]?.output;
}

describe('a failed call reaches the model as an error output', () => {
  it('ai 5', async () => {
    const usage5 = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    const prompts: Prompted[] = [];
    const mock = new MockLanguageModelV2({
      doGenerate: async (options) => {
        prompts.push(options as Prompted);
        const answered = options.prompt.some((m) => m.role === 'tool');
        return {
          content: answered ? [text] : [call],
          finishReason: answered ? 'stop' : 'tool-calls',
          usage: usage5,
          warnings: [],
        };
      },
    });
    const tools = { weather: toAiSdkTool(noForecast) } as unknown as ai5.ToolSet;
    await ai5.generateText({ model: mock, tools, prompt: 'Oslo?', stopWhen: ai5.stepCountIs(3) });
    expect(sentOutput(prompts)).toEqual(failureSent);
  });

  it('ai 6', async () => {
    const mock = new MockLanguageModelV3({ doGenerate: [turn([call], 'tool-calls'), turn([text], 'stop')] });
    const result = await ai6.generateText({
      model: mock,
      tools: { weather: toAiSdkTool(noForecast) },
      prompt: 'Oslo?',
      stopWhen: ai6.stepCountIs(3),
    });
    expect(sentOutput(mock.doGenerateCalls as Prompted[])).toEqual(failureSent);
    // The program still gets the typed failure.
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({ success: false, error_code: 'not_found' });
  });

  it.skipIf(!ai7Runs)('ai 7', async () => {
    const ai7 = await import('ai7');
    const { MockLanguageModelV4 } = await import('ai7/test');
    const mock = new MockLanguageModelV4({ doGenerate: [turn([call], 'tool-calls'), turn([text], 'stop')] });
    const tools = { weather: toAiSdkTool(noForecast) };
    await ai7.generateText({ model: mock, tools, prompt: 'Oslo?', stopWhen: ai7.isStepCount(3) });
    expect(sentOutput(mock.doGenerateCalls as Prompted[])).toEqual(failureSent);
  });
});
