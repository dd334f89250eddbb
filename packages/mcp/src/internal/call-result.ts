import { isToolFailure, type ToolCall } from '@bough/core';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { renderOutput } from '../render-text.js';
import { WRAPPED_OUTPUT_KEY } from './output-schema.js';

/**
 * True when a tool's output reports a failure a model should notice: a failed or cancelled call, a
 * `{ success: false }` value, or the `status: 'error'` shape used by code_check and ast_search.
 */
export function isFailedOutput(call: ToolCall): boolean {
  if (call.status !== 'completed') return true;
  return isFailedValue(call.output);
}

/** True for `{ success: false, … }` and `{ status: 'error' }` values. */
export function isFailedValue(output: unknown): boolean {
  if (isToolFailure(output)) return true;
  return typeof output === 'object' && output !== null && (output as { status?: unknown }).status === 'error';
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
 * Turns an output into an MCP tools/call result: the text a model needs (see `renderOutput`), the whole response as
 * `structuredContent` (a non-object output under `output`), and `isError` for every kind of failure so the model
 * reads it instead of the client seeing a protocol error.
 */
export function toToolResult(output: unknown, failed: boolean): CallToolResult {
  const isObject = typeof output === 'object' && output !== null && !Array.isArray(output);
  const structured = isObject ? (output as Record<string, unknown>) : { [WRAPPED_OUTPUT_KEY]: output ?? null };
  const image = isObject ? imageBlock(structured) : undefined;
  return {
    content: [image ?? { type: 'text', text: renderOutput(output) }],
    structuredContent: structured,
    ...(failed ? { isError: true } : {}),
  };
}

/** {@link toToolResult} for a settled registry call. */
export function toCallToolResult(call: ToolCall): CallToolResult {
  return toToolResult(call.output, isFailedOutput(call));
}
