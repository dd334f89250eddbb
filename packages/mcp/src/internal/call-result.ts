import { isToolFailure, type Tool, type ToolCall, toolOutputText } from '@bough/core';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { WRAPPED_OUTPUT_KEY } from './output-schema.js';

/** True when a call failed, was cancelled, or returned a tool failure (core's one `isToolFailure`). */
export function isFailedOutput(call: ToolCall): boolean {
  return call.status !== 'completed' || isToolFailure(call.output);
}

const DATA_URL = /^data:([a-z0-9.+/-]+);base64,/i;

type Content = CallToolResult['content'][number];

/** An inline image (reader) becomes an MCP image block, which hosts show as a picture rather than base64 text. */
function imageBlock(output: Record<string, unknown>): Content | undefined {
  if (output.type !== 'image' || typeof output.content !== 'string') return undefined;
  const match = DATA_URL.exec(output.content);
  if (!match) return undefined;
  return { type: 'image', data: output.content.slice(match[0].length), mimeType: match[1] as string };
}

/**
 * Turns an output into an MCP tools/call result: the text a model needs (the tool's own rendering through core's
 * `toolOutputText`, generic without a tool), the whole response as `structuredContent` (a non-object output under
 * `output`), and `isError` for every kind of failure so the model reads it instead of the client seeing a protocol
 * error.
 */
export function toToolResult(output: unknown, failed: boolean, tool?: Tool): CallToolResult {
  const isObject = typeof output === 'object' && output !== null && !Array.isArray(output);
  const structured = isObject ? (output as Record<string, unknown>) : { [WRAPPED_OUTPUT_KEY]: output ?? null };
  const image = isObject ? imageBlock(structured) : undefined;
  return {
    content: [image ?? { type: 'text', text: toolOutputText(tool, output) }],
    structuredContent: structured,
    ...(failed ? { isError: true } : {}),
  };
}

/** {@link toToolResult} for a settled registry call of `tool`. */
export function toCallToolResult(call: ToolCall, tool?: Tool): CallToolResult {
  return toToolResult(call.output, isFailedOutput(call), tool);
}
