import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { captureIO } from './test-io.js';

const never = new AbortController().signal;

type Answer = (body: { messages: { role: string; content?: string }[]; tools?: unknown[] }) => unknown;

/** A loopback server speaking the chat-completions protocol with scripted answers. */
async function fakeModel(
  answers: Answer[],
): Promise<{ url: string; server: Server; seen: { auth?: string; body: unknown }[] }> {
  const seen: { auth?: string; body: unknown }[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    seen.push({ ...(req.headers.authorization ? { auth: req.headers.authorization } : {}), body });
    const answer = answers.shift();
    if (!answer) {
      res.writeHead(500).end('{"error":{"message":"script exhausted"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, seen };
}

const completion = (message: unknown) => ({
  id: 'x',
  object: 'chat.completion',
  choices: [{ index: 0, message, finish_reason: 'stop' }],
});

describe('bough agent', () => {
  let ws: TempWorkspace;
  let server: Server | undefined;
  beforeEach(() => {
    ws = makeWorkspace({ 'todo.txt': 'buy milk\n' });
  });
  afterEach(() => {
    server?.close();
    ws.cleanup();
  });

  it('drives the toolkit with a model behind an OpenAI-compatible endpoint', async () => {
    const model = await fakeModel([
      () =>
        completion({
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'reader', arguments: '{"action":"read","path":"todo.txt"}' },
            },
          ],
        }),
      (body) => {
        const tool = body.messages.find((m) => m.role === 'tool');
        return completion({
          role: 'assistant',
          content: tool?.content?.includes('buy milk') ? 'The list says: buy milk.' : 'I could not read it.',
        });
      },
    ]);
    server = model.server;
    const io = captureIO(ws.root, { TEST_KEY: 'sk-test-123' });
    const code = await main(
      ['agent', 'What is on my list?', '--base-url', model.url, '--model', 'fake', '--api-key-env', 'TEST_KEY'],
      io,
      never,
    );
    expect(io.out()).toContain('The list says: buy milk.');
    expect(io.out()).toContain('→ reader');
    expect(code).toBe(0);
    expect(model.seen[0]?.auth).toBe('Bearer sk-test-123');
    expect(
      (model.seen[0]!.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name),
    ).toContain('editor');
  });

  it('turns malformed tool-call arguments into a typed tool failure the model sees', async () => {
    const model = await fakeModel([
      () =>
        completion({
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'reader', arguments: '{"action": "read", path' } },
          ],
        }),
      (body) => {
        const tool = body.messages.find((m) => m.role === 'tool');
        return completion({
          role: 'assistant',
          content: tool?.content?.includes('invalid_request') ? 'bad args noticed' : 'missed it',
        });
      },
    ]);
    server = model.server;
    const io = captureIO(ws.root);
    expect(await main(['agent', 'read it', '--base-url', model.url, '--model', 'fake'], io, never)).toBe(0);
    expect(io.out()).toContain('bad args noticed');
  });

  it('reports an HTTP failure as a model error with exit 1', async () => {
    const model = await fakeModel([]);
    server = model.server;
    const io = captureIO(ws.root);
    expect(await main(['agent', 'hi', '--base-url', model.url, '--model', 'fake'], io, never)).toBe(1);
    expect(io.out()).toMatch(/model_error/);
  });

  it('prints JSON lines with --json: each call, then the result', async () => {
    const model = await fakeModel([
      () =>
        completion({
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'reader', arguments: '{"action":"read","path":"todo.txt"}' },
            },
          ],
        }),
      () => completion({ role: 'assistant', content: 'done' }),
    ]);
    server = model.server;
    const io = captureIO(ws.root);
    expect(await main(['agent', 'read', '--base-url', model.url, '--model', 'fake', '--json'], io, never)).toBe(0);
    const lines = io
      .out()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ event: 'call', function: 'reader', status: 'completed' });
    expect(lines.at(-1)).toMatchObject({ event: 'result', stopped: 'answer', text: 'done' });
  });

  it('stops when aborted while the model is thinking', async () => {
    const controller = new AbortController();
    const hanging = createServer(() => controller.abort(new Error('interrupted')));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    server = hanging;
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/v1`;
    const io = captureIO(ws.root);
    expect(await main(['agent', 'hi', '--base-url', url, '--model', 'fake'], io, controller.signal)).toBe(1);
    expect(io.out()).toContain('stopped: aborted');
    hanging.closeAllConnections();
  });

  it('gives up on a model that never answers after --timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    server = silent;
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
    const io = captureIO(ws.root);
    expect(await main(['agent', 'hi', '--base-url', url, '--model', 'm', '--timeout', '200'], io, never)).toBe(1);
    expect(io.out()).toMatch(/model_error.*did not answer within 200 ms/);
    silent.closeAllConnections();
  });

  it('refuses a 10 MB answer instead of reading it all', async () => {
    const flood = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('error', () => {});
      res.end(Buffer.alloc(10 * 1024 * 1024, 0x20));
    });
    await new Promise<void>((resolve) => flood.listen(0, '127.0.0.1', resolve));
    server = flood;
    const url = `http://127.0.0.1:${(flood.address() as AddressInfo).port}/v1`;
    const io = captureIO(ws.root);
    expect(await main(['agent', 'hi', '--base-url', url, '--model', 'm'], io, never)).toBe(1);
    expect(io.out()).toMatch(/more than \d+ bytes/);
    flood.closeAllConnections();
  });

  it.each([
    [['--permissions', 'yolo'], /--permissions must be one of/],
    [['--base-url', 'not a url'], /is not a URL/],
    [['--base-url', 'ftp://x/v1'], /http or https/],
  ])('refuses bad flags %j with exit 2', async (extra, message) => {
    const io = captureIO(ws.root);
    const argv = ['agent', 'hi', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', ...extra];
    expect(await main(argv, io, never)).toBe(2);
    expect(io.err()).toMatch(message);
  });
});
