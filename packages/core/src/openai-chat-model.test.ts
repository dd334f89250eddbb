import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { executeTool } from './call.js';
import type { ChatMessage } from './chat-model.js';
import { OpenAIChatModel, OpenAIChatModelError } from './openai-chat-model.js';
import { defineTool } from './tool.js';

type Seen = { headers: IncomingMessage['headers']; body: Record<string, unknown>; url: string | undefined };
type Answer = (seen: Seen, res: ServerResponse) => void;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A loopback server that records each request and replies with the next scripted answer. */
async function fakeServer(...answers: Answer[]): Promise<{ baseUrl: string; seen: Seen[]; arrived: Promise<void> }> {
  const seen: Seen[] = [];
  let signalArrival: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    signalArrival = resolve;
  });
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    req.on('end', () => {
      const entry = { headers: req.headers, body: JSON.parse(raw) as Record<string, unknown>, url: req.url };
      seen.push(entry);
      signalArrival();
      const answer = answers.shift();
      if (answer) answer(entry, res);
      // No answer left: hold the request open (used by the timeout and abort tests).
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1/`, seen, arrived };
}

function json(status: number, body: unknown): Answer {
  return (_seen, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

function reply(message: Record<string, unknown>): Answer {
  return json(200, { id: 'x', object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }] });
}

describe('OpenAIChatModel', () => {
  it('sends the conversation and reads a plain text answer', async () => {
    const { baseUrl, seen } = await fakeServer(reply({ role: 'assistant', content: 'Hello there.' }));
    const model = new OpenAIChatModel({
      baseUrl,
      model: 'tiny',
      apiKey: 'sk-test',
      temperature: 0,
      headers: { 'x-team': 'a' },
    });
    const answer = await model.complete([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi', name: 'ada' },
    ]);
    expect(answer).toEqual({ text: 'Hello there.', toolCalls: [] });
    expect(seen[0]!.url).toBe('/v1/chat/completions');
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(seen[0]!.headers['x-team']).toBe('a');
    expect(seen[0]!.body).toEqual({
      model: 'tiny',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi', name: 'ada' },
      ],
      temperature: 0,
      stream: false,
    });
  });

  it('maps tools, tool calls and tool results both ways', async () => {
    const { baseUrl, seen } = await fakeServer(
      reply({
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_9', type: 'function', function: { name: 'reader', arguments: '{"file_path":"b.ts"}' } },
        ],
      }),
    );
    const history: ChatMessage[] = [
      { role: 'user', content: 'Read a.ts' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'reader', arguments: { file_path: 'a.ts' } }],
      },
      { role: 'tool', content: '{"content":"x"}', toolCallId: 'call_1', name: 'reader' },
    ];
    const tools = [{ name: 'reader', description: 'Reads files.', parameters: { type: 'object', properties: {} } }];
    const answer = await new OpenAIChatModel({ baseUrl, model: 'm' }).complete(history, { tools });
    expect(answer).toEqual({
      text: '',
      toolCalls: [{ id: 'call_9', name: 'reader', arguments: { file_path: 'b.ts' } }],
    });
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'reader', description: 'Reads files.', parameters: { type: 'object', properties: {} } },
      },
    ]);
    expect((seen[0]!.body.messages as unknown[]).slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'reader', arguments: '{"file_path":"a.ts"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"content":"x"}' },
    ]);
  });

  it('keeps arguments that are not JSON as text, which the executor reports as invalid_request', async () => {
    const { baseUrl } = await fakeServer(
      reply({
        role: 'assistant',
        tool_calls: [{ type: 'function', function: { name: 'echo', arguments: '{"text": oops' } }],
      }),
    );
    const answer = await new OpenAIChatModel({ baseUrl, model: 'm' }).complete([{ role: 'user', content: 'go' }]);
    expect(answer.toolCalls).toEqual([{ id: 'call_0_echo', name: 'echo', arguments: '{"text": oops' }]);
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes text.',
      request: z.object({ text: z.string() }).strict(),
      handler: async ({ text }) => text,
    });
    const call = await executeTool(echo, answer.toolCalls[0]!.arguments);
    expect(call.output).toMatchObject({ success: false, error_code: 'invalid_request' });
  });

  it('reports HTTP failures with the status and a short excerpt, never the API key', async () => {
    const key = 'sk-very-secret-123';
    const { baseUrl } = await fakeServer(
      json(401, { error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error' } }),
      json(500, 'upstream exploded'),
    );
    const model = new OpenAIChatModel({ baseUrl, model: 'm', apiKey: key });
    const unauthorised = await model.complete([{ role: 'user', content: 'hi' }]).catch((error: unknown) => error);
    expect(unauthorised).toBeInstanceOf(OpenAIChatModelError);
    expect(unauthorised).toMatchObject({ kind: 'http_error', status: 401 });
    const message = (unauthorised as Error).message;
    expect(message).toContain('HTTP 401');
    expect(message).toContain('Incorrect API key provided: [redacted]');
    expect(message).not.toContain(key);
    const crashed = await model.complete([{ role: 'user', content: 'hi' }]).catch((error: unknown) => error);
    expect(crashed).toMatchObject({ kind: 'http_error', status: 500 });
    expect((crashed as Error).message).toContain('upstream exploded');
  });

  it('rejects malformed responses clearly', async () => {
    const { baseUrl } = await fakeServer(json(200, '<html>gateway</html>'), json(200, { choices: [] }));
    const model = new OpenAIChatModel({ baseUrl, model: 'm' });
    await expect(model.complete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({
      kind: 'malformed_response',
      message: expect.stringContaining('non-JSON'),
    });
    await expect(model.complete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({
      kind: 'malformed_response',
      message: expect.stringContaining('choices[0].message'),
    });
  });

  it('gives up after timeoutMs when the server never answers', async () => {
    const { baseUrl } = await fakeServer();
    const model = new OpenAIChatModel({ baseUrl, model: 'm', timeoutMs: 50 });
    await expect(model.complete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({
      kind: 'timeout',
      message: expect.stringContaining('within 50 ms'),
    });
  });

  it("stops when the caller's signal aborts", async () => {
    const { baseUrl, arrived } = await fakeServer();
    const controller = new AbortController();
    const pending = new OpenAIChatModel({ baseUrl, model: 'm' }).complete([{ role: 'user', content: 'hi' }], {
      signal: controller.signal,
    });
    await arrived;
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('uses an injected fetch', async () => {
    const urls: string[] = [];
    const fakeFetch: typeof fetch = async (input) => {
      urls.push(String(input));
      return new Response(JSON.stringify({ choices: [{ message: { content: 'from fake' } }] }), { status: 200 });
    };
    const model = new OpenAIChatModel({ baseUrl: 'http://models.invalid/v1', model: 'm', fetch: fakeFetch });
    expect((await model.complete([{ role: 'user', content: 'hi' }])).text).toBe('from fake');
    expect(urls).toEqual(['http://models.invalid/v1/chat/completions']);
  });

  it('stops reading a body larger than maxResponseBytes and says so', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    let written = 0;
    const { baseUrl } = await fakeServer((_seen, res) => {
      // 10 MB without a content-length, written as fast as the client takes it.
      res.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (written < 10 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => {});
      pump();
    });
    const model = new OpenAIChatModel({ baseUrl, model: 'm', maxResponseBytes: 256 * 1024 });
    const error = await model.complete([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIChatModelError);
    expect(error).toMatchObject({ kind: 'too_large', message: expect.stringContaining('more than 262144 bytes') });
    expect(written).toBeLessThan(10 * 1024 * 1024);
  });

  it('refuses a declared content-length above the cap before reading the body', async () => {
    const fakeFetch: typeof fetch = async () =>
      new Response('{}', { status: 200, headers: { 'content-length': String(10 * 1024 * 1024) } });
    const model = new OpenAIChatModel({ baseUrl: 'http://models.invalid/v1', model: 'm', fetch: fakeFetch });
    await expect(model.complete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({ kind: 'too_large' });
  });

  it('applies the default cap too (a 10 MB answer is refused)', async () => {
    const big = new Uint8Array(10 * 1024 * 1024).fill(0x20);
    const fakeFetch: typeof fetch = async () => new Response(new Blob([big]).stream(), { status: 200 });
    const model = new OpenAIChatModel({ baseUrl: 'http://models.invalid/v1', model: 'm', fetch: fakeFetch });
    await expect(model.complete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({ kind: 'too_large' });
  });

  it('times out a server that sends headers and then trickles bytes forever', async () => {
    let timer: NodeJS.Timeout | undefined;
    const { baseUrl } = await fakeServer((_seen, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"choices":[');
      timer = setInterval(() => res.write(' '), 5);
      res.on('close', () => clearInterval(timer));
    });
    const model = new OpenAIChatModel({ baseUrl, model: 'm', timeoutMs: 300 });
    await expect(model.complete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({ kind: 'timeout' });
    clearInterval(timer);
  });

  it('quotes only the start of a huge error body', async () => {
    const { baseUrl } = await fakeServer(json(502, `bad gateway ${'y'.repeat(1024 * 1024)}`));
    const error = await new OpenAIChatModel({ baseUrl, model: 'm' })
      .complete([{ role: 'user', content: 'hi' }])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http_error', status: 502 });
    expect((error as Error).message).toContain('bad gateway');
    expect((error as Error).message.length).toBeLessThan(1000);
  });

  it('reports an unreachable server as a network error', async () => {
    const { baseUrl } = await fakeServer();
    const closed = servers.splice(0);
    for (const server of closed) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await expect(
      new OpenAIChatModel({ baseUrl, model: 'm' }).complete([{ role: 'user', content: 'hi' }]),
    ).rejects.toMatchObject({ kind: 'network', message: expect.stringContaining('Could not reach') });
  });
});
