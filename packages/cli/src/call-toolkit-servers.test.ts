// `bough call --toolkit` ends the language servers its toolkit started before it returns, whether the tool answered
// or the call was interrupted (Ctrl-C and SIGTERM abort the signal main gets): nothing is left running in the workspace. Real clangd processes, found by their working directory;
// skipped, with the reason printed, when clangd is not installed.
import { captureIO, eventually, makeWorkspace, notInstalled, processesIn, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './main.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({
    'compile_flags.txt': '-std=c11\n',
    'calc.c': 'int add(int a, int b) {\n  return a + b;\n}\n',
  });
});
afterEach(() => ws.cleanup());

const args = (request: object) => ['call', '--toolkit', '--workspace', ws.root, 'code_nav', JSON.stringify(request)];

describe.skipIf(notInstalled('clangd', "bough call's language-server tests are"))('bough call --toolkit', () => {
  it('ends the language server it started once the tool answered', async () => {
    const code = await main(
      args({ action: 'outline', path: 'calc.c' }),
      captureIO(ws.root),
      new AbortController().signal,
    );
    expect(code).toBe(0);
    expect(processesIn(ws.root)).toEqual([]);
  });

  it('ends it too when the call is interrupted while the server runs', async () => {
    const stop = new AbortController();
    let settled = false;
    const running = main(args({ action: 'outline', path: 'calc.c' }), captureIO(ws.root), stop.signal).finally(() => {
      settled = true;
    });
    // Interrupt once the server is up (if the call answered first, this is the answered case again).
    const during = await eventually(() =>
      settled || processesIn(ws.root).length > 0 ? processesIn(ws.root) : undefined,
    );
    stop.abort(new Error('interrupted'));
    const code = await running;
    if (during.length > 0) expect(code).not.toBe(0);
    expect(processesIn(ws.root)).toEqual([]);
  });
});
