import { PassThrough } from 'node:stream';
import { defineTool, ToolRegistry } from '@bough/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveStdio } from './stdio.js';

function registry() {
  const reg = new ToolRegistry();
  let aborted = false;
  reg.register(
    defineTool({
      name: 'slow',
      description: 'Answers after a while, or says it was stopped.',
      request: z.object({ ms: z.number() }).strict(),
      handler: (request, { signal }) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve(`slept ${request.ms}`), request.ms);
          signal.addEventListener('abort', () => {
            aborted = true;
            clearTimeout(timer);
            resolve('stopped');
          });
        }),
    }),
  );
  return { reg, wasAborted: () => aborted };
}

function session(signal?: AbortSignal) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const { reg, wasAborted } = registry();
  const lines: { id?: number; result?: { content: { text: string }[] } }[] = [];
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, end)));
      buffer = buffer.slice(end + 1);
    }
  });
  const done = serveStdio(reg, { name: 't', version: '1', stdin, stdout, ...(signal ? { signal } : {}) });
  const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const callSlow = (id: number, ms: number) =>
    send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: { ms } } });
  return { stdin, lines, done, callSlow, wasAborted };
}

describe('serveStdio shutdown', () => {
  it('answers every call in flight after stdin closes, then resolves', async () => {
    const s = session();
    s.callSlow(2, 300);
    s.callSlow(3, 50);
    s.stdin.end();
    await s.done;
    const byId = new Map(s.lines.map((line) => [line.id, line]));
    expect(byId.get(2)?.result?.content[0]?.text).toBe('slept 300');
    expect(byId.get(3)?.result?.content[0]?.text).toBe('slept 50');
    expect(s.wasAborted()).toBe(false);
  });

  it('aborts the calls in flight when its signal fires (SIGTERM, SIGINT)', async () => {
    const controller = new AbortController();
    const s = session(controller.signal);
    s.callSlow(2, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await s.done;
    expect(s.wasAborted()).toBe(true);
    expect(s.lines.some((line) => line.id === 2)).toBe(false);
  });
});
