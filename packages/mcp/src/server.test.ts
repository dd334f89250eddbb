import { PassThrough } from 'node:stream';
import { defineTool, failure, ToolRegistry } from '@bough/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMcpServer } from './server.js';
import { serveStdio } from './stdio.js';

let lastSeen: (value: unknown) => void = () => {};

function buildRegistry() {
  const registry = new ToolRegistry();
  let release: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    release = resolve;
  });
  let sawAbort: (reason: unknown) => void = () => {};
  const aborted = new Promise<unknown>((resolve) => {
    sawAbort = resolve;
  });
  registry.register([
    defineTool({
      name: 'greet',
      description: 'Greets someone by name.',
      request: z.object({ name: z.string().describe('Who to greet') }).strict(),
      handler: async ({ name }) => ({ success: true, greeting: `hello ${name}` }),
      annotations: { readOnlyHint: true },
    }),
    defineTool({
      name: 'refuse',
      description: 'Always returns a typed failure.',
      request: z.object({}).strict(),
      handler: async () => failure('not_found', 'Nothing here; try another path.'),
    }),
    defineTool({
      name: 'checker',
      description: 'Reports an error status like code_check does.',
      request: z.object({}).strict(),
      handler: async () => ({
        success: false,
        status: 'error',
        error_code: 'tool_missing',
        error: 'ruff is not installed',
      }),
    }),
    defineTool({
      name: 'wait',
      description: 'Waits until it is cancelled.',
      request: z.object({}).strict(),
      handler: (_request, { signal }) =>
        new Promise((resolve) => {
          release();
          signal.addEventListener('abort', () => {
            sawAbort(signal.reason);
            resolve('stopped');
          });
        }),
    }),
    defineTool({
      name: 'steps',
      description: 'Reports progress three times.',
      request: z.object({}).strict(),
      // A burst of three reports, then it waits until the client saw the last one (or gives up when cancelled).
      handler: async (_request, { progress, signal }) => {
        for (let i = 1; i <= 3; i++) progress?.({ completed: i, total: 3, message: `step ${i}` });
        await new Promise((resolve) => {
          lastSeen = resolve;
          signal.addEventListener('abort', resolve);
        });
        return 'done';
      },
    }),
  ]);
  return { registry, started, aborted };
}

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function connected(registry: ToolRegistry) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(registry, { name: 'test', version: '1.0.0' }).connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

describe('createMcpServer', () => {
  it('lists tools with their JSON Schema and annotations', async () => {
    const client = await connected(buildRegistry().registry);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['greet', 'refuse', 'checker', 'wait', 'steps']);
    const greet = tools[0]!;
    expect(greet.description).toBe('Greets someone by name.');
    expect(greet.inputSchema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string', description: 'Who to greet' } },
      required: ['name'],
    });
    expect(greet.annotations).toEqual({ readOnlyHint: true });
  });

  it('returns a successful call as JSON text plus structured content', async () => {
    const client = await connected(buildRegistry().registry);
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ success: true, greeting: 'hello Ada' });
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(result.structuredContent);
  });

  it('marks typed failures, error statuses and unknown tools with isError instead of a protocol error', async () => {
    const client = await connected(buildRegistry().registry);
    const refused = await client.callTool({ name: 'refuse', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ success: false, error_code: 'not_found' });
    const checked = await client.callTool({ name: 'checker', arguments: {} });
    expect(checked.isError).toBe(true);
    const unknown = await client.callTool({ name: 'nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ error_code: 'unknown_tool' });
  });

  it('reports invalid arguments as a readable isError result with zod wording', async () => {
    const client = await connected(buildRegistry().registry);
    const result = await client.callTool({ name: 'greet', arguments: { name: 42 } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain('invalid_request');
    expect(text).toContain('name: Invalid input: expected string, received number');
  });

  it('passes the client cancellation to the handler', async () => {
    const { registry, started, aborted } = buildRegistry();
    const client = await connected(registry);
    const controller = new AbortController();
    const pending = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal });
    await started;
    controller.abort('user pressed stop');
    await expect(pending).rejects.toThrow();
    // Resolves only if the handler's own signal fired.
    await expect(aborted).resolves.toBeDefined();
  });

  it('forwards progress when the client asks for it, at most one notification per interval', async () => {
    const client = await connected(buildRegistry().registry);
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: 'steps', arguments: {} }, undefined, {
      onprogress: (update) => {
        seen.push(update);
        if (update.progress === 3) lastSeen(undefined);
      },
    });
    expect((result.content as { text: string }[])[0]!.text).toBe('done');
    // The first report goes out at once; the burst behind it is folded into its latest report.
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('reads the registry again on every request when given a function', async () => {
    let current = new ToolRegistry();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(() => current, { name: 't', version: '1' }).connect(serverSide);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(clientSide);
    clients.push(client);
    expect((await client.listTools()).tools).toEqual([]);
    current = buildRegistry().registry;
    expect((await client.listTools()).tools).toHaveLength(5);
  });
});

describe('serveStdio', () => {
  it('answers over the given streams and resolves when input ends', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const done = serveStdio(buildRegistry().registry, { name: 'stdio-test', version: '2.0.0', stdin, stdout });
    const firstLine = new Promise<string>((resolve) => {
      let buffer = '';
      stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        const end = buffer.indexOf('\n');
        if (end >= 0) resolve(buffer.slice(0, end));
      });
    });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    };
    stdin.write(`${JSON.stringify(initialize)}\n`);
    const reply = JSON.parse(await firstLine) as { id: number; result: { serverInfo: { name: string } } };
    expect(reply.id).toBe(1);
    expect(reply.result.serverInfo.name).toBe('stdio-test');
    stdin.end();
    await expect(done).resolves.toBeUndefined();
  });
});
