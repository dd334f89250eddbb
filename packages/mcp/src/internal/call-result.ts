import { isToolFailure, type ToolCall } from '@bough/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * True when a tool's output reports a failure a model should notice: a failed or cancelled call, a
 * `{ success: false }` value, or the `status: 'error'` shape used by code_check and ast_search.
 */
export function isFailedOutput(call: ToolCall): boolean {
  if (call.status !== 'completed') return true;
  const output = call.output;
  if (isToolFailure(output)) return true;
  return typeof output === 'object' && output !== null && (output as { status?: unknown }).status === 'error';
}

function asText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined) return 'null';
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}

/**
 * Turns a settled call into an MCP tools/call result: the output as text (strings as-is, everything else as JSON),
 * `structuredContent` when the output is a plain object, and `isError` for every kind of failure so the model can
 * read it instead of the client seeing a protocol error.
 */
export function toCallToolResult(call: ToolCall): CallToolResult {
  const output = call.output;
  const structured =
    typeof output === 'object' && output !== null && !Array.isArray(output)
      ? (output as Record<string, unknown>)
      : undefined;
  return {
    content: [{ type: 'text', text: asText(output) }],
    ...(structured ? { structuredContent: structured } : {}),
    ...(isFailedOutput(call) ? { isError: true } : {}),
  };
}
