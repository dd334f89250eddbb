// A scripted AI SDK model for the dialect conformance tests: each turn emits the given native tool calls, and a last
// turn ends with text. The tool results the SDK feeds back are read from the steps generateText returns.
import { MockLanguageModelV3 } from 'ai/test';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** One native tool call: the tool's name as the provider names it, and its input. */
export interface ScriptedCall {
  readonly toolName: string;
  readonly input: unknown;
}

/** A model that makes one turn per entry of `turns` (each a list of calls), then answers "done". */
export function scriptedModel(turns: readonly (readonly ScriptedCall[])[]): MockLanguageModelV3 {
  const results = turns.map((calls, turn) => ({
    content: calls.map((call, index) => ({
      type: 'tool-call' as const,
      toolCallId: `call_${turn}_${index}`,
      toolName: call.toolName,
      input: JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' },
    usage,
    warnings: [],
  }));
  const done = {
    content: [{ type: 'text' as const, text: 'done' }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage,
    warnings: [],
  };
  return new MockLanguageModelV3({ doGenerate: [...results, done] });
}
