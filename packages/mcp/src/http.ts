import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigurationError } from '@bough/core';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { type McpServerOptions, mcpServerFactory, type RegistrySource, type ServedRoots } from './server.js';

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
}

/** A running MCP HTTP endpoint. */
export interface McpHttpServer {
  /** The endpoint clients connect to, e.g. `http://127.0.0.1:8123/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Aborts the calls in flight, stops listening and releases the registries built for the served roots. */
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

/**
 * Serves MCP over streamable HTTP at `/mcp`, statelessly: every request stands alone (no `Mcp-Session-Id`, no
 * initialize needed on the 2026-07-28 revision), so any request may reach any instance behind a balancer. Clients
 * on the 2026-07-28 revision and on 2025-11-25 (and older) are both served, each request by a fresh MCP server
 * instance over the same registries: one registry, or with served roots one per root, shared by every client.
 * Every request must carry the bearer token (401 otherwise), a `Host` naming this server and, when present, an
 * `Origin` of it (403 otherwise: DNS rebinding). Served roots must name their directories: a stateless request
 * cannot ask the client for its roots.
 */
export async function serveHttp(
  source: RegistrySource | ServedRoots,
  options: ServeHttpOptions,
): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  if (options.token.length < 16)
    throw new ConfigurationError('The MCP HTTP bearer token must be at least 16 characters.');
  if (typeof source === 'object' && 'registryFor' in source && (source.roots ?? []).length === 0) {
    throw new ConfigurationError(
      'Serving over HTTP needs the directories to serve: a stateless request cannot ask the client for its roots.',
    );
  }
  const factory = mcpServerFactory(source, options);
  const expected = digest(options.token);
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

  // The SDK's entry tells the two eras apart per request and asks the factory for an instance of the right one.
  const mcp = createMcpHandler(() => factory.create(), { onerror: () => {} });
  const serve = toNodeHandler(mcp);

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
    await serve(req, res);
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
  return {
    url: `http://${hostName(host === '0.0.0.0' ? '127.0.0.1' : host)}:${port}${MCP_HTTP_PATH}`,
    port,
    close: async () => {
      await mcp.close().catch(() => {});
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      factory.release();
    },
  };
}
