import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { ToolRegistry } from '@bough/core';
import { generateToken, type McpHttpServer, serveHttp } from '@bough/mcp';
import { createSearchTool } from '@bough/search';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// A long search over MCP, as a host sees it: the real search tool behind the real HTTP server, called by the SDK's
// 1.x client (2025-11-25) and its v2 client (2026-07-28). The search is slow on purpose and without a clock: its
// ripgrep is a wrapper that waits until a file appears, and the test creates that file only once the client heard
// progress. Without progress the call would hang until the test times out.

type Update = { progress: number; message?: string };
const text = (result: unknown) => (result as { content: { text: string }[] }).content.map((part) => part.text).join('');

let ws: TempWorkspace;
let server: McpHttpServer;
let token: string;
const closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  ws = makeWorkspace({ 'src/hay.txt': 'hay\nneedle in the hay\n' });
  const wrapper = ws.write(
    'slow-rg.sh',
    `#!/bin/sh\nwhile [ ! -e '${ws.path('go')}' ]; do sleep 0.02; done\nexec rg "$@"\n`,
    0o755,
  );
  const registry = new ToolRegistry();
  registry.register(createSearchTool({ workspaceRoot: ws.root, rgPath: wrapper }));
  token = generateToken();
  server = await serveHttp(registry, { name: 'progress-test', version: '0', port: 0, token });
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
  await server.close();
  ws.cleanup();
});

async function legacyCall(onprogress: (update: Update) => void) {
  const client = new Client({ name: 'v1', version: '0' });
  const headers = { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  closers.push(() => client.close());
  return client.callTool(search, undefined, { onprogress });
}

async function modernCall(onprogress: (update: Update) => void) {
  const client = new ModernClient(
    { name: 'v2', version: '0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const headers = { authorization: `Bearer ${token}` };
  await client.connect(new ModernTransport(new URL(server.url), { requestInit: { headers } }));
  closers.push(() => client.close());
  expect(client.getProtocolEra()).toBe('modern');
  return client.callTool(search, { onprogress });
}

const search = { name: 'search', arguments: { action: 'grep', pattern: 'needle', path: 'src' } };

describe('progress of a long search over MCP HTTP', () => {
  it.each([
    ['a 2025-11-25 client (SDK 1.x)', legacyCall],
    ['a 2026-07-28 client (SDK v2)', modernCall],
  ])(
    'reaches %s while the search runs',
    async (_who, call) => {
      const heard: Update[] = [];
      const result = await call((update) => {
        heard.push(update);
        // Let ripgrep start only once the client heard that the search is running.
        if (heard.length === 1) writeFileSync(ws.path('go'), '');
      });
      expect(heard[0]?.message).toMatch(/^running for \d+ s$/);
      expect(text(result)).toContain('needle in the hay');
      await rm(ws.path('go'), { force: true });
    },
    60_000,
  );
});
