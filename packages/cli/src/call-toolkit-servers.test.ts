// `bough call --toolkit` ends the language servers its toolkit started before it returns, whether the tool answered
// or the call was interrupted (Ctrl-C and SIGTERM abort the signal main gets): nothing is left running in the workspace. Real clangd processes, found by their working directory;
// skipped, with the reason printed, when clangd is not installed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    // The file includes a FIFO nobody writes to, so clangd blocks on it and the call cannot answer before it is
    // interrupted: the test always interrupts a running call.
    const fifoDir = mkdtempSync(join(tmpdir(), 'bough-call-fifo-'));
    try {
      const fifo = join(fifoDir, 'never.h');
      execFileSync('mkfifo', [fifo]);
      writeFileSync(
        join(ws.root, 'calc.c'),
        `#include ${JSON.stringify(fifo)}\nint add(int a, int b) { return a + b; }\n`,
      );
      const stop = new AbortController();
      let settled = false;
      const running = main(args({ action: 'outline', path: 'calc.c' }), captureIO(ws.root), stop.signal).finally(() => {
        settled = true;
      });
      const during = await eventually(() => {
        if (settled) throw new Error('the call ended before its language server was seen');
        const pids = processesIn(ws.root);
        return pids.length > 0 ? pids : undefined;
      });
      expect(during.length).toBeGreaterThan(0);
      stop.abort(new Error('interrupted'));
      expect(await running).not.toBe(0);
      expect(processesIn(ws.root)).toEqual([]);
    } finally {
      rmSync(fifoDir, { recursive: true, force: true });
    }
  });
});
