import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { defineTool, ToolRegistry } from '@bough/core';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateToken, type McpHttpServer, serveHttp } from './http.js';

/** `remember` stores a value, `recall` returns it, `steps` reports progress until the client saw its last report. */
function sharedRegistry(): { registry: ToolRegistry; sawLast: () => void } {
  let stored: string | undefined;
  let sawLast = () => {};
  const registry = new ToolRegistry();
  registry.register([
    defineTool({
      name: 'remember',
      description: 'Stores a value.',
      request: z.object({ value: z.string() }).strict(),
      handler: async ({ value }) => {
        stored = value;
        return { success: true, message: `stored ${value}` };
      },
    }),
    defineTool({
      name: 'recall',
      description: 'Returns what was stored.',
      request: z.object({}).strict(),
      handler: async () => ({ success: true, message: stored ?? 'nothing' }),
    }),
    defineTool({
      name: 'steps',
      description: 'Reports progress twice, then waits until the client saw the second report.',
      request: z.object({}).strict(),
      handler: async (_request, { progress, signal }) => {
        const seen = new Promise((resolve) => {
          sawLast = () => resolve(undefined);
          signal.addEventListener('abort', resolve);
        });
        progress?.({ completed: 1, total: 2, message: 'first half' });
        progress?.({ completed: 2, total: 2, message: 'second half' });
        await seen;
        return { success: true, message: 'done' };
      },
    }),
  ]);
  return { registry, sawLast: () => sawLast() };
}

/** A fetch that sends the given Host header (the platform fetch never lets a caller set it). */
function fetchWithHost(host: string): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    headers.set('host', host);
    const body = typeof init?.body === 'string' ? init.body : undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: init?.method ?? 'GET', headers: Object.fromEntries(headers.entries()) },
        (res) => {
          const out = new Headers();
          for (const [key, value] of Object.entries(res.headers)) if (typeof value === 'string') out.set(key, value);
          resolve(new Response(Readable.toWeb(res) as ReadableStream, { status: res.statusCode ?? 500, headers: out }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }) as typeof fetch;
}

let server: McpHttpServer;
let token: string;
let tools: ReturnType<typeof sharedRegistry>;
const clients: { close(): Promise<void> }[] = [];
beforeEach(async () => {
  token = generateToken();
  tools = sharedRegistry();
  server = await serveHttp(tools.registry, { name: 't', version: '1', port: 0, token });
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  await server.close();
});

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

/** A client of the SDK's 1.x line: the 2025-11-25 protocol (initialize handshake). */
async function connect(options: { token?: string; fetch?: typeof fetch; url?: string } = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(options.url ?? server.url), {
    requestInit: { headers: options.token ? bearer(options.token) : {} },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const client = new Client({ name: 'http-test', version: '0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A client of the SDK's v2 packages pinned to the 2026-07-28 revision (no initialize, no fallback). */
async function connectModern(options: { fetch?: typeof fetch } = {}): Promise<ModernClient> {
  const transport = new ModernTransport(new URL(server.url), {
    requestInit: { headers: bearer(token) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const client = new ModernClient(
    { name: 'http-test-2026', version: '0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A fetch that records each request's JSON-RPC method and each response's headers, then sends it on. */
function recording(target: (url: string) => string = (url) => url) {
  const methods: string[] = [];
  const sessionHeaders: string[] = [];
  const fetcher = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (typeof init?.body === 'string') methods.push((JSON.parse(init.body) as { method?: string }).method ?? '');
    const response = await fetch(target(url), init);
    const session = response.headers.get('mcp-session-id');
    if (session) sessionHeaders.push(session);
    return response;
  }) as typeof fetch;
  return { fetcher, methods, sessionHeaders };
}

type CallOptions = { onprogress: (update: { progress: number; total?: number; message?: string }) => void };

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe('serveHttp', () => {
  it('serves a 2025-11-25 client (SDK 1.x) statelessly, with the bearer token', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const wire = recording();
    const client = await connect({ token, fetch: wire.fetcher });
    expect(client.getServerVersion()?.name).toBe('t');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['remember', 'recall', 'steps']);
    expect(wire.sessionHeaders).toEqual([]);
  });

  it('serves a 2026-07-28 client (SDK v2) without a handshake, and lets it cache the tool list', async () => {
    const wire = recording();
    const client = await connectModern({ fetch: wire.fetcher });
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['remember', 'recall', 'steps']);
    expect((await client.listTools()).tools).toHaveLength(3);
    expect(text(await client.callTool({ name: 'remember', arguments: { value: 'v2' } }))).toBe('stored v2');
    expect(wire.methods).not.toContain('initialize');
    // The second listing came from the client's cache: the server advertised a time to live for it.
    expect(wire.methods.filter((method) => method === 'tools/list')).toHaveLength(1);
    expect(wire.sessionHeaders).toEqual([]);
  });

  it('answers any request on any instance: a client moved between two servers mid-conversation', async () => {
    const other = await serveHttp(tools.registry, { name: 't', version: '1', port: 0, token });
    try {
      let turn = 0;
      const swap = (url: string) => (turn++ % 2 === 0 ? url : url.replace(server.url, other.url));
      const legacy = await connect({ token, fetch: recording(swap).fetcher });
      await legacy.callTool({ name: 'remember', arguments: { value: 'shared' } });
      expect(text(await legacy.callTool({ name: 'recall', arguments: {} }))).toBe('shared');
      const modern = await connectModern({ fetch: recording(swap).fetcher });
      expect(text(await modern.callTool({ name: 'recall', arguments: {} }))).toBe('shared');
      expect(turn).toBeGreaterThanOrEqual(4);
    } finally {
      await other.close();
    }
  });

  it('sends progress on a long call to clients of both revisions', async () => {
    const legacy = await connect({ token });
    const modern = await connectModern();
    for (const call of [
      (options: CallOptions) => legacy.callTool({ name: 'steps', arguments: {} }, undefined, options),
      (options: CallOptions) => modern.callTool({ name: 'steps', arguments: {} }, options),
    ]) {
      const seen: { progress: number; total?: number; message?: string }[] = [];
      const result = await call({
        onprogress: (update) => {
          seen.push(update);
          if (update.progress === 2) tools.sawLast();
        },
      });
      expect(text(result)).toBe('done');
      expect(seen.at(0)).toEqual({ progress: 1, total: 2, message: 'first half' });
      expect(seen.at(-1)).toEqual({ progress: 2, total: 2, message: 'second half' });
    }
  });

  it('answers 401 without a token or with a wrong one', async () => {
    await expect(connect()).rejects.toMatchObject({ code: 401 });
    await expect(connect({ token: `${token}x` })).rejects.toMatchObject({ code: 401 });
    await expect(connect({ token: 'short' })).rejects.toMatchObject({ code: 401 });
  });

  it('answers 403 to a foreign Host or Origin (DNS rebinding), even with the token', async () => {
    await expect(connect({ token, fetch: fetchWithHost(`evil.example:${server.port}`) })).rejects.toMatchObject({
      code: 403,
    });
    const origin = await fetch(server.url, {
      method: 'POST',
      headers: { ...bearer(token), origin: 'http://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(origin.status).toBe(403);
    // A loopback name the server was not bound to by address is still this machine.
    const local = await connect({ token, fetch: fetchWithHost(`localhost:${server.port}`) });
    expect((await local.listTools()).tools).toHaveLength(3);
  });

  it('refuses another path, and a GET (there is no session stream to open)', async () => {
    const other = await fetch(server.url.replace('/mcp', '/other'), { headers: bearer(token) });
    expect(other.status).toBe(404);
    const stream = await fetch(server.url, { headers: { ...bearer(token), accept: 'text/event-stream' } });
    expect(stream.status).toBe(405);
  });

  it('needs the directories when it serves roots: a stateless request cannot ask for them', async () => {
    await expect(
      serveHttp({ registryFor: () => tools.registry }, { name: 't', version: '1', port: 0, token }),
    ).rejects.toThrow(/needs the directories/);
  });
});
