import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import {
  captureIO,
  completionBody,
  type FakeStep,
  sseAnswer,
  useFakeModelAgent,
  wireToolCall,
} from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';
import type { CliIO } from './output.js';

const never = new AbortController().signal;
const agent = useFakeModelAgent(main, { 'todo.txt': 'buy milk\n' });

const read = (id = 'c1') => ({ id, name: 'reader', args: { action: 'read', path: 'todo.txt' } });
const toolText = (request: { body: { messages: { role: string; content?: unknown }[] } }) =>
  request.body.messages
    .filter((m) => m.role === 'tool')
    .map((m) => String(m.content))
    .join('\n');

const run = (steps: FakeStep[], argv: string[], env: Record<string, string> = {}, extra: Partial<CliIO> = {}) =>
  agent.run(steps, argv, env, extra);

describe('bough agent: the model client', () => {
  it('streams the answer, runs the tools, prints the answer on stdout and the trace on stderr', async () => {
    const r = await run(
      [
        { sse: sseAnswer(['Reading ', 'the list.'], [read()]) },
        (request) => ({ sse: sseAnswer([toolText(request).includes('buy milk') ? 'The list says: buy milk.' : 'no']) }),
      ],
      ['What is on my list?', '--api-key-env', 'TEST_KEY'],
      { TEST_KEY: 'sk-test-123' },
    );
    expect(r.code).toBe(0);
    expect(r.out).toBe('The list says: buy milk.\n');
    expect(r.err).toContain('Reading the list.');
    expect(r.err).toContain('→ reader');
    expect(r.err).toMatch(/2 model turns, 1 tool calls, answered/);
    expect(r.requests[0]?.headers.authorization).toBe('Bearer sk-test-123');
    expect(r.requests[0]?.body.stream).toBe(true);
    expect(r.requests[0]?.body.tools?.map((t) => t.function.name)).toContain('editor');
  });

  it('understands a server that answers plain JSON, and --no-stream', async () => {
    const json: FakeStep = { json: completionBody({ content: 'plain answer' }) };
    expect(await run([json], ['hi'])).toMatchObject({ code: 0, out: 'plain answer\n' });
    const r = await run([json], ['hi', '--no-stream']);
    expect(r).toMatchObject({ code: 0, out: 'plain answer\n' });
    expect(r.requests[0]?.body.stream).not.toBe(true);
  });

  it('waits what Retry-After asks on a 429, then goes on', async () => {
    const r = await run(
      [
        { json: { error: { message: 'rate limited' } }, status: 429, headers: { 'retry-after': '0' } },
        { sse: sseAnswer(['ok']) },
      ],
      ['hi'],
      // A one-minute backoff: only Retry-After: 0 lets this finish.
      { BOUGH_MODEL_RETRY_DELAY_MS: '60000' },
    );
    expect(r).toMatchObject({ code: 0, out: 'ok\n' });
    expect(r.err).toMatch(/HTTP 429: rate limited — retry 1 in 0 ms/);
  });

  it('retries a 500, then goes on; gives up after --retries with the error on stderr', async () => {
    const ok = await run([{ json: { error: { message: 'oops' } }, status: 500 }, { sse: sseAnswer(['ok']) }], ['hi']);
    expect(ok).toMatchObject({ code: 0, out: 'ok\n' });
    const down = await run(
      [500, 500].map((status) => ({ json: { error: { message: 'still down' } }, status })),
      ['hi', '--retries', '1'],
    );
    expect(down.code).toBe(1);
    expect(down.out).toBe('');
    expect(down.err).toMatch(/model error: .*HTTP 500: still down/);
    expect(down.requests).toHaveLength(2);
  });

  it('reports garbage as a model error without retrying', async () => {
    const r = await run([{ raw: 'data: <html>not json</html>\n\n' }], ['hi']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/model error: .*could not be read/);
    expect(r.requests).toHaveLength(1);
  });

  it('gives up on a hung server after --timeout', async () => {
    const r = await run([{ hang: true }], ['hi', '--timeout', '200', '--retries', '0']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/did not finish answering within 200 ms/);
  });

  it('stops a model that loops on tools at --max-turns', async () => {
    const loop = Array.from({ length: 5 }, (_, i) => ({ sse: sseAnswer([], [read(`c${i}`)]) }));
    const r = await run(loop, ['loop', '--max-turns', '2']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/2 model turns, 2 tool calls, stopped: max_turns/);
    expect(r.requests).toHaveLength(2);
  });
});

describe('bough agent: a faithful transcript', () => {
  it('keeps text and tool calls of one answer as one assistant message, and shows the text', async () => {
    const r = await run([{ sse: sseAnswer(['I will read it.'], [read()]) }, { sse: sseAnswer(['done']) }], ['read it']);
    expect(r.code).toBe(0);
    expect(r.err).toContain('I will read it.');
    const sent = r.requests[1]?.body.messages ?? [];
    const assistants = sent.filter((m) => m.role === 'assistant');
    expect(assistants).toHaveLength(1);
    expect(assistants[0]).toMatchObject({ content: 'I will read it.' });
    expect(assistants[0]?.tool_calls?.map((c) => c.id)).toEqual(['c1']);
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
  });

  it('tells the model its tool-argument JSON was malformed, and where', async () => {
    const r = await run(
      [
        { json: completionBody({ tool_calls: [wireToolCall('c1', 'reader', '{"action": "read", path')] }) },
        (request) => ({ sse: sseAnswer([toolText(request)]) }),
      ],
      ['read it'],
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/not valid JSON \(Expected double-quoted property name at position 19/);
    expect(r.out).toContain('did not run');
  });
});

describe('bough agent: output', () => {
  it('--json prints call, result, text and final events on stdout', async () => {
    const r = await run([{ sse: sseAnswer(['Looking.'], [read()]) }, { sse: sseAnswer(['done']) }], ['read', '--json']);
    expect(r.code).toBe(0);
    const events = r.out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((e) => e.event)).toEqual(['text', 'call', 'result', 'text', 'final']);
    expect(events[1]).toMatchObject({ call_id: 'c1', function: 'reader', arguments: { path: 'todo.txt' } });
    expect(events[2]).toMatchObject({ call_id: 'c1', status: 'completed', output: { success: true } });
    expect(events[4]).toMatchObject({ stopped: 'answer', text: 'done', turns: 2, toolCalls: 1 });
  });

  it('--json reports retries and model errors as error events', async () => {
    const r = await run(
      [500, 500].map((status) => ({ json: { error: { message: 'x' } }, status })),
      ['hi', '--json', '--retries', '1'],
    );
    const events = r.out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((e) => [e.event, e.retrying])).toEqual([
      ['error', true],
      ['error', false],
      ['final', undefined],
    ]);
    expect(events[2]).toMatchObject({ stopped: 'model_error' });
  });
});

describe('bough agent: approval', () => {
  const bash = (command: string, id = 'b1') => ({ id, name: 'bash', args: { command } });
  const answer = (request: { body: { messages: { role: string; content?: unknown }[] } }) => ({
    sse: sseAnswer([`tools said: ${toolText(request)}`]),
  });

  it('denies an ask without a terminal, naming --permissions and --yes; runs it with --yes', async () => {
    const r = await run([{ sse: sseAnswer([], [bash('echo approved')]) }, answer], ['run it']);
    expect(r.out).toMatch(/denied/);
    expect(r.out).toMatch(/--yes/);
    expect(r.out).toMatch(/--permissions/);
    expect(r.out).not.toContain('approved\\n');
    const yes = await run([{ sse: sseAnswer([], [bash('echo approved')]) }, answer], ['run it', '--yes']);
    expect(yes.out).toContain('approved\\n');
  });

  it('never asks for reads under the default safe policy', async () => {
    const r = await run([{ sse: sseAnswer([], [read()]) }, answer], ['read']);
    expect(r.out).toContain('buy milk');
    expect(r.err).not.toContain('y/n/a');
  });

  it('on a terminal: y runs once, n refuses with the reason the model sees, a remembers the pattern', async () => {
    const input = new PassThrough();
    const steps: FakeStep[] = [
      { sse: sseAnswer([], [bash('echo one', 'b1')]) },
      { sse: sseAnswer([], [bash('echo two', 'b2')]) },
      { sse: sseAnswer([], [bash('echo hello world', 'b3')]) },
      { sse: sseAnswer([], [bash('echo hello again', 'b4')]) },
      answer,
    ];
    const io = { input, inputIsTTY: true };
    const server = await agent.serve(steps);
    const capture = captureIO(agent.ws.root, { BOUGH_MODEL_RETRY_DELAY_MS: '1' }, io);
    const answers = ['y', 'n', 'wrong directory', 'a'];
    const feeder = setInterval(() => {
      // Answer each prompt once it is on screen.
      const prompts = capture.err().split('y/n/a>').length - 1 + capture.err().split('reason for the model').length - 1;
      const given = 4 - answers.length;
      if (prompts > given && answers.length > 0) input.write(`${answers.shift()}\n`);
    }, 10);
    const code = await main(['agent', 'go', '--base-url', server.url, '--model', 'fake'], capture, never).finally(() =>
      clearInterval(feeder),
    );
    expect(code).toBe(0);
    const tools = toolText(server.requests.at(-1)!);
    expect(tools).toContain('one\\n');
    expect(tools).toMatch(/declined bash \\"echo two\\": the user said: wrong directory/);
    expect(tools).toContain('hello again\\n');
    // y, n and a were asked; the second `echo hello` ran without a prompt.
    expect(capture.err().split('y/n/a>').length - 1).toBe(3);
    expect(capture.err()).toContain('always allow bash "echo hello"');
  });

  it('shows the diff of an edit before asking', async () => {
    const input = new PassThrough();
    const edit = { action: 'edit', file_path: 'todo.txt', old_string: 'milk', new_string: 'bread' };
    const server = await agent.serve([
      { sse: sseAnswer([], [read()]) },
      { sse: sseAnswer([], [{ id: 'e1', name: 'editor', args: edit }]) },
      answer,
    ]);
    const capture = captureIO(agent.ws.root, {}, { input, inputIsTTY: true });
    const feeder = setInterval(() => {
      if (capture.err().includes('y/n/a>')) {
        input.write('y\n');
        clearInterval(feeder);
      }
    }, 10);
    const code = await main(['agent', 'edit', '--base-url', server.url, '--model', 'fake'], capture, never);
    clearInterval(feeder);
    expect(code).toBe(0);
    expect(capture.err()).toMatch(/-buy milk/);
    expect(capture.err()).toMatch(/\+buy bread/);
    expect(capture.out()).toContain('"success":true');
  });

  it('refuses when the run is interrupted during a prompt', async () => {
    const input = new PassThrough();
    const controller = new AbortController();
    const server = await agent.serve([{ sse: sseAnswer([], [bash('echo never')]) }]);
    const capture = captureIO(agent.ws.root, {}, { input, inputIsTTY: true });
    const watcher = setInterval(() => {
      if (capture.err().includes('y/n/a>')) controller.abort(new Error('interrupted'));
    }, 10);
    const code = await main(['agent', 'go', '--base-url', server.url, '--model', 'fake'], capture, controller.signal);
    clearInterval(watcher);
    expect(code).toBe(1);
    expect(capture.err()).toMatch(/stopped: aborted/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('bough agent: configuration', () => {
  it('takes flags, then env, then bough.config.json, and --print-config says where each came from', async () => {
    writeFileSync(
      join(agent.ws.root, 'bough.config.json'),
      JSON.stringify({ baseUrl: 'http://file.invalid/v1', model: 'from-file', maxTurns: 7 }),
    );
    const io = captureIO(agent.ws.root, { OPENAI_BASE_URL: 'http://env.invalid/v1', OPENAI_API_KEY: 'sk-very-secret' });
    expect(await main(['agent', '--print-config', '--model', 'from-flag'], io, never)).toBe(0);
    const text = io.out();
    expect(text).toMatch(/baseUrl\s+http:\/\/env\.invalid\/v1\s+\(env OPENAI_BASE_URL\)/);
    expect(text).toMatch(/model\s+from-flag\s+\(--model\)/);
    expect(text).toMatch(
      new RegExp(`maxTurns\\s+7\\s+\\(${join(agent.ws.root, 'bough.config.json').replace(/[.]/g, '\\.')}\\)`),
    );
    expect(text).toMatch(/apiKey\s+set \(hidden\)\s+\(env OPENAI_API_KEY\)/);
    expect(text).toMatch(/permissions\s+safe\s+\(built-in default\)/);
    expect(text).not.toContain('sk-very-secret');
  });

  it('reads the user config file and uses env values in a run', async () => {
    const server = await agent.serve([{ sse: sseAnswer(['from env']) }]);
    const home = join(agent.ws.base, 'home');
    mkdirSync(join(home, '.config', 'bough'), { recursive: true });
    writeFileSync(join(home, '.config', 'bough', 'config.json'), JSON.stringify({ model: 'user-model' }));
    const io = captureIO(agent.ws.root, { HOME: home, OPENAI_BASE_URL: server.url });
    expect(await main(['agent', 'hi'], io, never)).toBe(0);
    expect(io.out()).toBe('from env\n');
    expect(server.requests[0]?.body.model).toBe('user-model');
  });

  it.each([
    [['--permissions', 'yolo'], /--permissions must be one of/],
    [['--base-url', 'not a url'], /is not a URL/],
    [['--base-url', 'ftp://x/v1'], /http or https/],
    [['--retries', 'many'], /--retries must be a whole number/],
  ])('refuses bad settings %j with exit 2', async (extra, message) => {
    const io = captureIO(agent.ws.root);
    expect(
      await main(['agent', 'hi', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', ...extra], io, never),
    ).toBe(2);
    expect(io.err()).toMatch(message);
  });

  it('refuses a key in a config file and a missing endpoint', async () => {
    writeFileSync(join(agent.ws.root, 'bough.config.json'), JSON.stringify({ apiKey: 'sk-x' }));
    const io = captureIO(agent.ws.root);
    expect(await main(['agent', 'hi'], io, never)).toBe(2);
    expect(io.err()).toMatch(/keys are never read from a file/);
    expect(io.err()).not.toContain('sk-x');
    writeFileSync(join(agent.ws.root, 'bough.config.json'), '{}');
    const none = captureIO(agent.ws.root);
    expect(await main(['agent', 'hi', '--model', 'm'], none, never)).toBe(2);
    expect(none.err()).toMatch(/OPENAI_BASE_URL/);
    expect(existsSync(join(agent.ws.root, 'bough.config.json'))).toBe(true);
  });
});
