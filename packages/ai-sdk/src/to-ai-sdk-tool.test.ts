import { defineTool, type Tool, ToolRegistry, toolJsonSchema } from '@bough/core';
import { type Tool as AiTool, asSchema, generateText, jsonSchema, stepCountIs, type ToolSet, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AiSdkToolOutput, toAiSdkTool, toAiSdkTools } from './to-ai-sdk-tool.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function toolCallTurn(toolName: string, input: string) {
  return {
    content: [{ type: 'tool-call' as const, toolCallId: 'call_1', toolName, input }],
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

const textTurn = {
  content: [{ type: 'text' as const, text: 'All done.' }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage,
  warnings: [],
};

function weatherTool(seen: { city: string; callId: string }[] = []) {
  return defineTool({
    name: 'weather',
    description: 'Looks up the weather for a city.',
    request: z.object({ city: z.string().describe('City name') }).strict(),
    handler: async ({ city }, { callId }) => {
      seen.push({ city, callId });
      return { success: true as const, forecast: `Sunny in ${city}` };
    },
  });
}

describe('toAiSdkTool', () => {
  it("produces tools that satisfy the AI SDK's own types and schema checks", () => {
    const adapted: AiTool<{ city: string }, AiSdkToolOutput<{ success: true; forecast: string }>> = toAiSdkTool(
      weatherTool(),
    );
    const viaHelper = tool(adapted);
    const set: ToolSet = { weather: viaHelper, ...toAiSdkTools([weatherTool() as Tool]) };
    expect(Object.keys(set)).toEqual(['weather']);
    expect(adapted.description).toBe('Looks up the weather for a city.');
    const schema = asSchema(adapted.inputSchema);
    expect(schema.jsonSchema).toEqual(toolJsonSchema(weatherTool()));
    // ai finds the SDK schema marker first and uses the object as it is, not as a lazy or standard schema.
    expect(schema).toBe(adapted.inputSchema);
    expect(Object.keys(schema)).toEqual(expect.arrayContaining(Object.keys(jsonSchema({ type: 'object' }))));
    // The Standard Schema side (what the declared type promises) converts to the same JSON Schema and accepts anything.
    const ours = toAiSdkTool(weatherTool()).inputSchema['~standard'];
    expect(asSchema({ '~standard': ours }).jsonSchema).toMatchObject(toolJsonSchema(weatherTool()));
    expect(ours.validate({ city: 7 })).toEqual({ value: { city: 7 } });
  });

  it('runs inside generateText: the model calls the tool and gets its result back', async () => {
    const seen: { city: string; callId: string }[] = [];
    const model = new MockLanguageModelV3({ doGenerate: [toolCallTurn('weather', '{"city":"Oslo"}'), textTurn] });
    const result = await generateText({
      model,
      tools: toAiSdkTools([weatherTool(seen) as Tool]),
      prompt: 'Weather in Oslo?',
      stopWhen: stepCountIs(3),
    });
    expect(seen).toEqual([{ city: 'Oslo', callId: 'call_1' }]);
    expect(result.text).toBe('All done.');
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({ success: true, forecast: 'Sunny in Oslo' });
    const offered = model.doGenerateCalls[0]!.tools![0]!;
    expect(offered).toMatchObject({ type: 'function', name: 'weather', inputSchema: toolJsonSchema(weatherTool()) });
    const fedBack = JSON.stringify(model.doGenerateCalls[1]!.prompt);
    expect(fedBack).toContain('Sunny in Oslo');
  });

  it('returns invalid input as a typed failure value the model reads', async () => {
    const seen: { city: string; callId: string }[] = [];
    const model = new MockLanguageModelV3({ doGenerate: [toolCallTurn('weather', '{"city":5}'), textTurn] });
    const result = await generateText({
      model,
      tools: { weather: toAiSdkTool(weatherTool(seen)) },
      prompt: 'Weather?',
      stopWhen: stepCountIs(3),
    });
    expect(seen).toEqual([]);
    const output = result.steps[0]!.toolResults[0]!.output as { success: boolean; error_code: string; error: string };
    expect(output).toMatchObject({ success: false, error_code: 'invalid_request' });
    expect(output.error).toContain('city: Invalid input: expected string, received number');
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain('invalid_request');
  });

  it("hands generateText's abort signal to the handler", async () => {
    const controller = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    const waiting = defineTool({
      name: 'wait',
      description: 'Waits until cancelled.',
      request: z.object({}).strict(),
      handler: (_request, { signal }) =>
        new Promise<string>((resolve) => {
          handlerSignal = signal;
          signal.addEventListener('abort', () => resolve('stopped'));
          controller.abort(new Error('user pressed stop'));
        }),
    });
    const model = new MockLanguageModelV3({ doGenerate: [toolCallTurn('wait', '{}'), textTurn] });
    const result = await generateText({
      model,
      tools: { wait: toAiSdkTool(waiting) },
      prompt: 'Wait.',
      abortSignal: controller.signal,
      stopWhen: stepCountIs(1),
    });
    expect(handlerSignal?.aborted).toBe(true);
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({
      success: false,
      error: 'Call to wait was cancelled: user pressed stop.',
      error_code: 'aborted',
    });
  });

  it('applies registry hooks and reports each call to onCall', async () => {
    const registry = new ToolRegistry();
    registry.register(weatherTool());
    registry.addHooks('weather', {
      pre: [
        ({ args }) =>
          (args as { city: string }).city === 'Mordor' ? { decision: 'deny', reason: 'no travel there' } : undefined,
      ],
    });
    const statuses: string[] = [];
    const tools = toAiSdkTools(registry, { onCall: (call) => statuses.push(call.status) });
    const execute = tools.weather!.execute!;
    const denied = await execute({ city: 'Mordor' }, { toolCallId: 'c1' });
    expect(denied).toMatchObject({ success: false, error_code: 'denied' });
    const fine = await execute({ city: 'Bergen' }, { toolCallId: 'c2' });
    expect(fine).toEqual({ success: true, forecast: 'Sunny in Bergen' });
    expect(statuses).toEqual(['failed', 'completed']);
  });

  it('turns a crashing handler and a timeout into typed failures inside generateText', async () => {
    const crash = defineTool({
      name: 'crash',
      description: 'Always throws.',
      request: z.object({}).strict(),
      handler: async () => {
        throw new Error('kaboom');
      },
    });
    const stuck = defineTool({
      name: 'stuck',
      description: 'Never finishes on its own.',
      request: z.object({}).strict(),
      handler: (_request, { signal }) =>
        new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('late'))),
    });
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          ...toolCallTurn('crash', '{}'),
          content: [
            { type: 'tool-call' as const, toolCallId: 'a', toolName: 'crash', input: '{}' },
            { type: 'tool-call' as const, toolCallId: 'b', toolName: 'stuck', input: '{}' },
          ],
        },
        textTurn,
      ],
    });
    const result = await generateText({
      model,
      tools: toAiSdkTools([crash, stuck] as Tool[], { timeoutMs: 50 }),
      prompt: 'Go.',
      stopWhen: stepCountIs(2),
    });
    const outputs = Object.fromEntries(result.steps[0]!.toolResults.map((r) => [r.toolName, r.output]));
    expect(outputs.crash).toMatchObject({ success: false, error_code: 'handler_error' });
    expect(outputs.stuck).toMatchObject({ success: false, error_code: 'timed_out' });
    expect(result.text).toBe('All done.');
  });
});
