import { defineTool, errorMessage, type Tool } from '@bough/core';
import { z } from 'zod';
import type { McpRemoteTool } from '../client-source.js';
import { fail, type McpFailure } from '../errors.js';
import type { McpLimits } from '../limits.js';
import type { Connection } from './connect.js';

type CallResult = Awaited<ReturnType<Connection['client']['callTool']>>;
type ContentBlock = { type: string; text?: string };

/** A local validator for a remote schema; a schema zod cannot read is left for the server to check. */
function requestSchema(inputSchema: McpRemoteTool['inputSchema']): z.ZodType<Record<string, unknown>> {
  try {
    return z.fromJSONSchema(inputSchema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<
      Record<string, unknown>
    >;
  } catch {
    return z.record(z.string(), z.unknown());
  }
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… ${text.length - max} more characters cut by bough's maxResultChars limit]`;
}

function contentText(content: readonly ContentBlock[], max: number): string {
  const parts = content.map((block) =>
    block.type === 'text' && typeof block.text === 'string' ? block.text : `[${block.type} content omitted]`,
  );
  return clip(parts.join('\n'), max);
}

/** Maps a remote result onto a local output: failures become typed values, structured data wins over text. */
export function fromRemoteResult(alias: string, toolName: string, result: CallResult, limits: McpLimits): unknown {
  const content = (Array.isArray(result.content) ? result.content : []) as ContentBlock[];
  if (result.isError) {
    const detail = contentText(content, limits.maxResultChars) || 'no details given';
    return fail('remote_error', `MCP server ${alias} reported an error from ${toolName}: ${detail}`);
  }
  const structured = result.structuredContent;
  if (structured && typeof structured === 'object') return structured;
  if ('toolResult' in result) return result.toolResult;
  return contentText(content, limits.maxResultChars);
}

function unavailable(alias: string, why: string): McpFailure {
  return fail(
    'remote_unavailable',
    `MCP server ${alias} cannot be reached (${why}). Do not retry this tool until the server is reconnected.`,
  );
}

/** Builds the local Tool that forwards calls to one remote MCP tool. */
export function proxyTool(
  connection: Connection,
  alias: string,
  name: string,
  remote: McpRemoteTool,
  limits: McpLimits,
): Tool<Record<string, unknown>, unknown> {
  const { $schema: _dropped, ...inputSchema } = remote.inputSchema as Record<string, unknown>;
  return defineTool({
    name,
    description: remote.description?.trim() || `Runs the tool ${remote.name} on the MCP server ${alias}.`,
    request: requestSchema(remote.inputSchema),
    jsonSchema: inputSchema,
    ...(remote.annotations ? { annotations: { ...remote.annotations } } : {}),
    handler: async (request, context) => {
      if (connection.isClosed()) return unavailable(alias, 'the connection is closed');
      try {
        const result = await connection.client.callTool(
          { name: remote.name, arguments: request },
          {
            signal: context.signal,
            timeout: limits.requestTimeoutMs,
            ...(context.progress
              ? {
                  onprogress: (update) =>
                    context.progress?.({
                      completed: update.progress,
                      ...(update.total !== undefined ? { total: update.total } : {}),
                      ...(update.message ? { message: update.message } : {}),
                    }),
                }
              : {}),
          },
        );
        return fromRemoteResult(alias, remote.name, result, limits);
      } catch (error) {
        if (context.signal.aborted) throw error;
        const { SdkError, SdkErrorCode } = connection.sdk;
        if (connection.isClosed() || (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed)) {
          return unavailable(alias, errorMessage(error));
        }
        if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
          return unavailable(alias, `no answer within ${limits.requestTimeoutMs} ms`);
        }
        return fail('remote_error', `MCP server ${alias} rejected the call to ${remote.name}: ${errorMessage(error)}`);
      }
    },
  });
}
