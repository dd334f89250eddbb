import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CancelledNotificationSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { MCP_LIMITS } from './limits.js';
import { createMcpServer, type McpServerOptions, type RegistrySource, type ServedRoots } from './server.js';

/** Options for {@link serveStdio}: the server identity, streams (process stdin/stdout by default) and a stop signal. */
export interface ServeStdioOptions extends McpServerOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Aborting it stops at once: calls in flight are cancelled (wire SIGTERM/SIGINT here). */
  readonly signal?: AbortSignal;
  /** After stdin closed, the longest wait for the answers still owed (default `drainTimeoutMs` of the limits). */
  readonly drainTimeoutMs?: number;
}

/**
 * The id a message answers or asks with, told apart by shape alone: every message here has already been validated,
 * incoming ones by the SDK's reader and outgoing ones because the SDK built them, so the SDK's `isJSONRPC…` guards
 * (each a full zod parse of the message, twice per call) would only repeat that work.
 */
const responseId = (message: JSONRPCMessage): RequestId | undefined =>
  !('method' in message) && 'id' in message ? message.id : undefined;
const requestId = (message: JSONRPCMessage): RequestId | undefined =>
  'method' in message && 'id' in message ? message.id : undefined;

function cancelledId(message: JSONRPCMessage): RequestId | undefined {
  const parsed = CancelledNotificationSchema.safeParse(message);
  return parsed.success ? parsed.data.params.requestId : undefined;
}

/**
 * Serves tools over stdio until the client goes away, then resolves.
 * - stdin ends or closes: every request already received is answered (each call bounded by its own timeout), then
 *   the server closes;
 * - stdout breaks (EPIPE after the client died), stdin errors, or `signal` aborts: the server closes at once, which
 *   aborts every call still running, so their processes are stopped rather than orphaned.
 * Lines that are not JSON-RPC are skipped; the session goes on. Nothing but protocol messages may be written to
 * stdout while this runs; log to stderr.
 */
export async function serveStdio(source: RegistrySource | ServedRoots, options: ServeStdioOptions): Promise<void> {
  const drainMs = MCP_LIMITS.resolve({ drainTimeoutMs: options.drainTimeoutMs }).drainTimeoutMs;
  const server = createMcpServer(source, options);
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const inner = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      resolve();
    };
  });
  // Garbage from the client is reported here by the SDK; it must not end the session or reach stdout.
  server.onerror = () => {};
  const open = new Set<RequestId>();
  let draining = false;
  let backstop: NodeJS.Timeout | undefined;
  const stop = () => void server.close().catch(() => {});
  const settleIfDrained = () => {
    if (draining && open.size === 0) {
      // Let the last reply reach the pipe before closing.
      stdout.write('', () => stop());
    }
  };
  const onEnd = () => {
    if (draining) return;
    draining = true;
    backstop = setTimeout(stop, drainMs);
    backstop.unref();
    settleIfDrained();
  };
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  stdin.on('error', stop);
  stdout.on('error', stop);
  options.signal?.addEventListener('abort', stop, { once: true });
  // Count requests in and responses out, so a closed stdin waits for the answers still owed.
  const transport: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: async (message) => {
      try {
        await inner.send(message);
      } finally {
        const id = responseId(message);
        if (id !== undefined) {
          open.delete(id);
          settleIfDrained();
        }
      }
    },
  };
  inner.onclose = () => transport.onclose?.();
  inner.onerror = (error) => transport.onerror?.(error);
  inner.onmessage = (message) => {
    const id = requestId(message);
    if (id !== undefined) open.add(id);
    else if ('method' in message && message.method === 'notifications/cancelled') {
      // A cancelled request gets no answer; it is no longer owed.
      const id = cancelledId(message);
      if (id !== undefined) open.delete(id);
    }
    transport.onmessage?.(message);
    settleIfDrained();
  };
  try {
    await server.connect(transport);
    if (options.signal?.aborted) stop();
    await closed;
  } finally {
    stdin.off('end', onEnd);
    stdin.off('close', onEnd);
    stdin.off('error', stop);
    if (backstop) clearTimeout(backstop);
    options.signal?.removeEventListener('abort', stop);
    // The stdout listener stays: a late EPIPE from a reply still in flight must not crash the process.
    // Our own process stdin is released so that it no longer keeps the process alive.
    if (!options.stdin) process.stdin.destroy();
  }
}
