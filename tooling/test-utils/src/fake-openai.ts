import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake server received. */
export interface FakeRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: {
    model?: string;
    stream?: boolean;
    messages: {
      role: string;
      content?: unknown;
      tool_calls?: { id: string; function: { name: string; arguments: string } }[];
      tool_call_id?: string;
    }[];
    tools?: { function: { name: string } }[];
  };
}

/** What the fake server does for one request. */
export type FakeReply =
  | { readonly json: unknown; readonly status?: number; readonly headers?: Record<string, string> }
  | { readonly sse: readonly unknown[]; readonly done?: boolean }
  | { readonly raw: string; readonly status?: number; readonly headers?: Record<string, string> }
  /** Accepts the request and never answers. */
  | { readonly hang: true }
  /** Sends the start of an SSE answer, then destroys the connection. */
  | { readonly drop: readonly unknown[] };

/** A scripted answer: a reply, or a function of the request that returns one. */
export type FakeStep = FakeReply | ((request: FakeRequest) => FakeReply);

/** A local OpenAI-compatible `/chat/completions` server (127.0.0.1, random port) with scripted answers. */
export interface FakeOpenAI {
  /** API root to give a client, ending in `/v1`. */
  readonly url: string;
  readonly requests: FakeRequest[];
  /** Steps not yet used. */
  remaining(): number;
  close(): Promise<void>;
}

/** Starts a {@link FakeOpenAI}; a request past the end of the script gets HTTP 500 "script exhausted". */
export async function startFakeOpenAI(steps: readonly FakeStep[]): Promise<FakeOpenAI> {
  const script = [...steps];
  const requests: FakeRequest[] = [];
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    let body: FakeRequest['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400).end('{"error":{"message":"request was not JSON"}}');
      return;
    }
    const request = { headers: req.headers, body };
    requests.push(request);
    const step = script.shift();
    const reply = typeof step === 'function' ? step(request) : step;
    res.on('error', () => {});
    if (!reply) {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"script exhausted"}}');
    } else if ('json' in reply) {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.json));
    } else if ('sse' in reply) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of reply.sse) res.write(`data: ${JSON.stringify(event)}\n\n`);
      res.end(reply.done === false ? '' : 'data: [DONE]\n\n');
    } else if ('raw' in reply) {
      res.writeHead(reply.status ?? 200, reply.headers ?? { 'content-type': 'text/event-stream' }).end(reply.raw);
    } else if ('drop' in reply) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of reply.drop) res.write(`data: ${JSON.stringify(event)}\n\n`);
      setTimeout(() => res.socket?.destroy(), 20);
    }
    // { hang: true }: say nothing until the client gives up.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    remaining: () => script.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A non-streamed chat completion body with one assistant message. */
export function completionBody(message: { content?: string | null; tool_calls?: unknown[] }): unknown {
  return {
    id: 'cmpl-fake',
    object: 'chat.completion',
    created: 0,
    model: 'fake',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: null, ...message },
        finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
      },
    ],
  };
}

/** A wire tool call for {@link completionBody}; `args` is sent as given when it is a string (so it may be broken). */
export function wireToolCall(id: string, name: string, args: unknown): unknown {
  return {
    id,
    type: 'function',
    function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
  };
}

function chunk(delta: unknown, finish: string | null = null): unknown {
  return {
    id: 'chunk-fake',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'fake',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** SSE events that stream `pieces` of text, then optional tool calls, then the finish reason. */
export function sseAnswer(
  pieces: readonly string[],
  calls: readonly { id: string; name: string; args: unknown }[] = [],
): unknown[] {
  const events: unknown[] = pieces.map((piece, index) =>
    chunk(index === 0 ? { role: 'assistant', content: piece } : { content: piece }),
  );
  for (const [index, call] of calls.entries()) {
    const text = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    const half = Math.floor(text.length / 2);
    events.push(
      chunk({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: text.slice(0, half) } },
        ],
      }),
    );
    events.push(chunk({ tool_calls: [{ index, function: { arguments: text.slice(half) } }] }));
  }
  events.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  return events;
}
