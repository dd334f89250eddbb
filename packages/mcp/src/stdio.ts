import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { JSONRPCMessage, RequestId, Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio as serveStdioEntry } from '@modelcontextprotocol/server/stdio';
import { MCP_LIMITS } from './limits.js';
import { type McpServerOptions, mcpServerFactory, type RegistrySource, type ServedRoots } from './server.js';

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
  if (!('method' in message) || message.method !== 'notifications/cancelled') return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
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
  const factory = mcpServerFactory(source, options);
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  // The SDK's transport closes (and aborts every call) as soon as its input ends. It reads from this stream instead,
  // which ends only once the answers still owed went out: the client that closed stdin still gets them.
  const input = new PassThrough();
  const inner = new StdioServerTransport(input, stdout);
  let resolveClosed = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const open = new Set<RequestId>();
  let draining = false;
  let backstop: NodeJS.Timeout | undefined;
  let handle: { close(): Promise<void> } | undefined;
  const stop = () => {
    input.end();
    void handle?.close().catch(() => {});
  };
  const settleIfDrained = () => {
    // Let the last reply reach the pipe before closing.
    if (draining && open.size === 0) stdout.write('', () => stop());
  };
  const onData = (chunk: Buffer) => input.write(chunk);
  const onEnd = () => {
    if (draining) return;
    draining = true;
    backstop = setTimeout(stop, drainMs);
    backstop.unref();
    settleIfDrained();
  };
  stdin.on('data', onData);
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
  inner.onclose = () => {
    transport.onclose?.();
    resolveClosed();
  };
  // Garbage from the client is reported here by the SDK; it must not end the session or reach stdout.
  inner.onerror = (error) => transport.onerror?.(error);
  inner.onmessage = (message) => {
    const id = requestId(message);
    if (id !== undefined) open.add(id);
    else {
      // A cancelled request gets no answer; it is no longer owed.
      const cancelled = cancelledId(message);
      if (cancelled !== undefined) open.delete(cancelled);
    }
    transport.onmessage?.(message);
    settleIfDrained();
  };
  try {
    // The SDK entry decides the connection's era from its first message: 2026-07-28 or the 2025 handshake.
    handle = serveStdioEntry(factory.create, { transport, onerror: () => {} });
    if (options.signal?.aborted) stop();
    await closed;
    await handle.close().catch(() => {});
  } finally {
    factory.release();
    stdin.off('data', onData);
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
