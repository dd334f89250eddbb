import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigurationError, type ToolRegistry } from '@bough/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { MCP_LIMITS, type McpLimits } from './limits.js';
import { createMcpServer, type McpServerOptions, type ServedRoots } from './server.js';

/** Options for {@link serveHttp}. */
export interface ServeHttpOptions extends McpServerOptions {
  /** Address to listen on (default 127.0.0.1: loopback only). */
  readonly host?: string;
  /** Port to listen on; 0 picks a free one (see `McpHttpServer.port`). */
  readonly port: number;
  /** The bearer token every request must carry (`Authorization: Bearer <token>`). Use {@link generateToken}. */
  readonly token: string;
  /** More `Host` header values to accept, `name:port` (for a reverse proxy); loopback names are always accepted. */
  readonly allowedHosts?: readonly string[];
  /** More `Origin` values to accept (browsers send one); by default only origins of the accepted hosts. */
  readonly allowedOrigins?: readonly string[];
  /** Session limits: `maxHttpSessions`, `httpSessionIdleMs`; a bad override throws a `ConfigurationError` naming the key. */
  readonly limits?: Partial<Pick<McpLimits, 'maxHttpSessions' | 'httpSessionIdleMs'>>;
}

/** A running MCP HTTP endpoint. */
export interface McpHttpServer {
  /** The endpoint clients connect to, e.g. `http://127.0.0.1:8123/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Sessions open now. */
  readonly sessions: () => number;
  /** Closes every session (aborting their calls) and stops listening. */
  close(): Promise<void>;
}

/** The path the MCP endpoint is served at. */
export const MCP_HTTP_PATH = '/mcp';

/** A fresh random bearer token (256 bits, base64url). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

const digest = (value: string) => createHash('sha256').update(value).digest();

function tokenMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  // Compare digests: equal length whatever was sent, and timingSafeEqual never short-circuits.
  return timingSafeEqual(digest(match?.[1] ?? ''), expected) && match !== null;
}

function hostName(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function deny(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

interface Session {
  readonly server: Server;
  readonly transport: StreamableHTTPServerTransport;
  seen: number;
}

/**
 * Serves MCP over streamable HTTP at `/mcp`. Every request must carry the bearer token (401 otherwise), a `Host`
 * naming this server and, when present, an `Origin` of it (403 otherwise: DNS rebinding). Each client session gets
 * its own MCP server, so its own registries, file state and calls: with served roots a registry per root per
 * session, with a function one registry per session (called with the session id).
 */
export async function serveHttp(
  source: ServedRoots | ((sessionId: string) => ToolRegistry),
  options: ServeHttpOptions,
): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const { maxHttpSessions: maxSessions, httpSessionIdleMs: idleMs } = MCP_LIMITS.resolve(options.limits);
  if (options.token.length < 16)
    throw new ConfigurationError('The MCP HTTP bearer token must be at least 16 characters.');
  const expected = digest(options.token);
  const sessions = new Map<string, Session>();
  let port = options.port;
  const hosts = () => {
    const names = LOOPBACK.has(host) || host === '0.0.0.0' ? [...LOOPBACK, host] : [host];
    return new Set([
      ...names.map((name) => `${hostName(name)}:${port}`.toLowerCase()),
      ...(options.allowedHosts ?? []),
    ]);
  };
  let allowedHosts = hosts();
  let allowedOrigins = new Set<string>();
  const refreshAllowed = () => {
    allowedHosts = hosts();
    allowedOrigins = new Set([...[...allowedHosts].map((h) => `http://${h}`), ...(options.allowedOrigins ?? [])]);
  };
  refreshAllowed();

  const open = (id: string): Server =>
    typeof source === 'function' ? createMcpServer(source(id), options) : createMcpServer(source, options);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const hostHeader = (req.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(hostHeader)) return deny(res, 403, `Host ${hostHeader || '(none)'} is not allowed.`);
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) {
      return deny(res, 403, `Origin ${origin} is not allowed.`);
    }
    if (!tokenMatches(req.headers.authorization, expected)) {
      return deny(res, 401, 'A valid bearer token is required.', { 'www-authenticate': 'Bearer' });
    }
    const path = (req.url ?? '').split('?')[0];
    if (path !== MCP_HTTP_PATH) return deny(res, 404, `Not found; the MCP endpoint is ${MCP_HTTP_PATH}.`);
    const header = req.headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    if (id !== undefined) {
      const session = sessions.get(id);
      if (!session) return deny(res, 404, 'Unknown or expired session; initialize a new one.');
      session.seen = Date.now();
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return deny(res, 400, 'Start a session with an initialize POST first.');
    if (sessions.size >= maxSessions)
      return deny(res, 503, `Too many open sessions (${maxSessions}); close one first.`);
    let server: Server | undefined;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        if (server) sessions.set(sessionId, { server, transport, seen: Date.now() });
      },
    });
    server = open(randomUUID());
    server.onerror = () => {};
    const released = server.onclose;
    server.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      released?.();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // Anything but a successful initialize leaves no session behind.
    if (!transport.sessionId || !sessions.has(transport.sessionId)) await server.close().catch(() => {});
  };

  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) deny(res, 500, 'Internal error.');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  refreshAllowed();
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const session of sessions.values()) if (session.seen < cutoff) void session.server.close().catch(() => {});
    },
    Math.max(1_000, Math.min(idleMs, 60_000)),
  );
  sweep.unref();
  return {
    url: `http://${hostName(host === '0.0.0.0' ? '127.0.0.1' : host)}:${port}${MCP_HTTP_PATH}`,
    port,
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((session) => session.server.close().catch(() => {})));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
