import type { Readable, Writable } from 'node:stream';
import { type ToolProgress, type ToolRegistry, toMcpTool } from '@bough/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import { toCallToolResult } from './internal/call-result.js';

/** A registry, or a function returning the registry to serve (read again on every request). */
export type RegistrySource = ToolRegistry | (() => ToolRegistry);

/** Options for {@link createMcpServer}. */
export interface McpServerOptions {
  /** Server name reported to clients during initialisation. */
  readonly name: string;
  /** Server version reported to clients during initialisation. */
  readonly version: string;
  /** Optional per-call timeout handed to the registry; by default each tool's own limits apply. */
  readonly timeoutMs?: number;
  /** Optional instructions shown to the client (how to use this set of tools). */
  readonly instructions?: string;
}

type McpToolEntry = ListToolsResult['tools'][number];

function listEntry(tool: Parameters<typeof toMcpTool>[0]): McpToolEntry {
  const entry = toMcpTool(tool);
  // MCP requires an object schema at the root; a union of objects still validates the same with the type added.
  const inputSchema =
    entry.inputSchema.type === 'object' ? entry.inputSchema : { ...entry.inputSchema, type: 'object' };
  return { ...entry, inputSchema } as McpToolEntry;
}

/**
 * Builds a low-level MCP `Server` exposing a registry's tools through tools/list and tools/call. Every outcome of a
 * call, including invalid arguments, unknown tools and typed failures, comes back as a result (with `isError` when
 * it failed), never as a protocol error. Progress is forwarded when the client asked for it.
 */
export function createMcpServer(source: RegistrySource, options: McpServerOptions): Server {
  const registry = typeof source === 'function' ? source : () => source;
  const server = new Server(
    { name: options.name, version: options.version },
    { capabilities: { tools: {} }, ...(options.instructions ? { instructions: options.instructions } : {}) },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: registry().list().map(listEntry) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const token = request.params._meta?.progressToken;
    let progress: ((update: ToolProgress) => void) | undefined;
    if (token !== undefined) {
      let last = 0;
      progress = (update) => {
        // MCP asks for a strictly increasing progress value; count reports when the tool gives no number.
        last = typeof update.completed === 'number' && update.completed > last ? update.completed : last + 1;
        void extra
          .sendNotification({
            method: 'notifications/progress',
            params: {
              progressToken: token,
              progress: last,
              ...(typeof update.total === 'number' ? { total: update.total } : {}),
              ...(update.message ? { message: update.message } : {}),
            },
          })
          .catch(() => {});
      };
    }
    const call = await registry().invoke(request.params.name, request.params.arguments ?? {}, {
      signal: extra.signal,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(progress ? { progress } : {}),
    });
    return toCallToolResult(call);
  });
  return server;
}

/** Options for {@link serveStdio}: the server identity plus streams (process stdin/stdout by default). */
export interface ServeStdioOptions extends McpServerOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
}

/**
 * Serves a registry over stdio until the client goes away, then resolves. The client going away means: stdin ends or
 * errors, or stdout breaks (EPIPE after the client died). Closing the server aborts every call still running, so
 * their processes are stopped rather than orphaned. Lines that are not JSON-RPC are skipped; the session goes on.
 * Nothing but protocol messages may be written to stdout while this runs; log to stderr.
 */
export async function serveStdio(source: RegistrySource, options: ServeStdioOptions): Promise<void> {
  const server = createMcpServer(source, options);
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  // Garbage from the client is reported here by the SDK; it must not end the session or reach stdout.
  server.onerror = () => {};
  // The SDK transport does not notice a closed stdin or a broken stdout by itself, so close the server then.
  const onGone = () => void server.close().catch(() => {});
  stdin.once('end', onGone);
  stdin.once('close', onGone);
  stdin.on('error', onGone);
  stdout.on('error', onGone);
  try {
    await server.connect(transport);
    await closed;
  } finally {
    stdin.off('end', onGone);
    stdin.off('close', onGone);
    stdin.off('error', onGone);
    // The stdout listener stays: a late EPIPE from a reply still in flight must not crash the process.
    // Our own process stdin is released so that it no longer keeps the process alive.
    if (!options.stdin) process.stdin.destroy();
  }
}
