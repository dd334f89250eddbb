import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { defineTool, ToolRegistry } from '@bough/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateToken, type McpHttpServer, serveHttp } from './http.js';

/** One registry per session: `remember` stores a value, `recall` returns what this session stored. */
function sessionRegistry(): ToolRegistry {
  let stored: string | undefined;
  const registry = new ToolRegistry();
  registry.register([
    defineTool({
      name: 'remember',
      description: 'Stores a value for this session.',
      request: z.object({ value: z.string() }).strict(),
      handler: async ({ value }) => {
        stored = value;
        return { success: true, message: `stored ${value}` };
      },
    }),
    defineTool({
      name: 'recall',
      description: 'Returns what this session stored.',
      request: z.object({}).strict(),
      handler: async () => ({ success: true, message: stored ?? 'nothing' }),
    }),
  ]);
  return registry;
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
const clients: Client[] = [];
beforeEach(async () => {
  token = generateToken();
  server = await serveHttp(() => sessionRegistry(), { name: 't', version: '1', port: 0, token });
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  await server.close();
});

async function connect(options: { token?: string; fetch?: typeof fetch } = {}): Promise<Client> {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const client = new Client({ name: 'http-test', version: '0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe('serveHttp', () => {
  it('listens on loopback and serves a session with the bearer token', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect({ token });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['remember', 'recall']);
    expect(server.sessions()).toBe(1);
  });

  it('answers 401 without a token or with a wrong one', async () => {
    await expect(connect()).rejects.toMatchObject({ code: 401 });
    await expect(connect({ token: `${token}x` })).rejects.toMatchObject({ code: 401 });
    await expect(connect({ token: 'short' })).rejects.toMatchObject({ code: 401 });
    expect(server.sessions()).toBe(0);
  });

  it('answers 403 to a foreign Host or Origin (DNS rebinding), even with the token', async () => {
    await expect(connect({ token, fetch: fetchWithHost(`evil.example:${server.port}`) })).rejects.toMatchObject({
      code: 403,
    });
    const origin = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(origin.status).toBe(403);
    // A loopback name the server was not bound to by address is still this machine.
    const local = await connect({ token, fetch: fetchWithHost(`localhost:${server.port}`) });
    expect((await local.listTools()).tools).toHaveLength(2);
  });

  it('gives every client session its own registry', async () => {
    const first = await connect({ token });
    const second = await connect({ token });
    await first.callTool({ name: 'remember', arguments: { value: 'one' } });
    expect(text(await first.callTool({ name: 'recall', arguments: {} }))).toBe('one');
    expect(text(await second.callTool({ name: 'recall', arguments: {} }))).toBe('nothing');
    expect(server.sessions()).toBe(2);
  });

  it('refuses a request to another path, and a request without a session that is not initialize', async () => {
    const other = await fetch(server.url.replace('/mcp', '/other'), { headers: { authorization: `Bearer ${token}` } });
    expect(other.status).toBe(404);
    const stray = await fetch(server.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(stray.status).toBeGreaterThanOrEqual(400);
    expect(server.sessions()).toBe(0);
  });
});
