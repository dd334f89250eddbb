// `bough agent` ends the language servers its toolkit started when the run ends, whether the model answered, the run
// was interrupted (Ctrl-C and SIGTERM abort the signal main gets) or it failed. Real clangd processes, found by their
// working directory; skipped, with the reason printed, when clangd is not installed.
import { captureIO, notInstalled, processesIn, sseAnswer, useFakeModelAgent } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

const SKIPPED = "the agent's language-server tests are";

const agent = useFakeModelAgent(main, {
  'compile_flags.txt': '-std=c11\n',
  'calc.c': 'int add(int a, int b) {\n  return a + b;\n}\n',
});

const outline = sseAnswer(['Looking.'], [{ id: 'n1', name: 'code_nav', args: { action: 'outline', path: 'calc.c' } }]);

describe.skipIf(notInstalled('clangd', SKIPPED))('bough agent and its language servers', () => {
  it('ends the server once the model answered', async () => {
    let during: number[] = [];
    const r = await agent.run(
      [
        { sse: outline },
        () => {
          during = processesIn(agent.ws.root);
          return { sse: sseAnswer(['It defines add.']) };
        },
      ],
      ['What does calc.c define?'],
    );
    expect(r.code).toBe(0);
    expect(r.err).toContain('→ code_nav');
    expect(during.length).toBeGreaterThan(0);
    expect(processesIn(agent.ws.root)).toEqual([]);
  });

  it('ends the server when the run is interrupted while the model thinks', async () => {
    const stop = new AbortController();
    let during: number[] = [];
    const model = await agent.serve([
      { sse: outline },
      () => {
        during = processesIn(agent.ws.root);
        setTimeout(() => stop.abort(new Error('interrupted')), 50);
        return { hang: true };
      },
    ]);
    const io = captureIO(agent.ws.root, { BOUGH_MODEL_RETRY_DELAY_MS: '1' });
    const code = await main(['agent', 'outline calc.c', '--base-url', model.url, '--model', 'fake'], io, stop.signal);
    expect(code).not.toBe(0);
    expect(during.length).toBeGreaterThan(0);
    expect(processesIn(agent.ws.root)).toEqual([]);
  });

  it('ends the server when the model fails after the tool ran', async () => {
    const r = await agent.run(
      [{ sse: outline }, { json: { error: { message: 'down' } }, status: 500 }],
      ['outline calc.c', '--retries', '0'],
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/model error/);
    expect(processesIn(agent.ws.root)).toEqual([]);
  });
});
