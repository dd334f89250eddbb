// Deny rules as mounts: denyRead matches are hidden like protected files, denyWrite matches are read-only, and a
// pattern the sandbox cannot enforce is refused when the tool is built. Runs real bubblewrap; skips (saying why) only
// where it cannot build a sandbox.
import { readFileSync } from 'node:fs';
import { ConfigurationError } from '@bough/core';
import { sandboxSupport } from '@bough/process';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BashOptions } from './bash-options.js';
import { handleBash } from './handle-bash.js';
import { createBashTool } from './tool.js';

const support = sandboxSupport();
if (!support.available)
  console.warn(`SKIPPED sandbox deny-rule tests: bubblewrap cannot sandbox here: ${support.reason}`);

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({
    'secrets/a.txt': 'DENIED-DIR-CANARY\n',
    'secrets/deep/b.txt': 'DENIED-DEEP-CANARY\n',
    'notes/private.md': 'DENIED-FILE-CANARY\n',
    'notes/public.md': 'public\n',
    'locked/config.json': '{"locked":true}\n',
    'README.md': 'readme\n',
  });
});
afterEach(() => ws.cleanup());

const rules: Partial<BashOptions> = {
  denyRead: ['secrets/**', '**/private.md'],
  denyWrite: ['locked', 'README.md'],
};
// biome-ignore lint/suspicious/noExplicitAny: loose access to the result shape in assertions
const run = async (command: string, extra: Partial<BashOptions> = rules): Promise<any> =>
  handleBash({ command, timeout: 20_000 }, { workspaceRoot: ws.root, sandbox: 'required', ...extra });

describe('deny patterns the sandbox cannot enforce are refused at setup', () => {
  for (const pattern of ['', '/etc/passwd', '../outside/**', 'a/../../b', '!secrets/**', '~/x']) {
    it(`refuses ${JSON.stringify(pattern)} for both options`, () => {
      for (const option of ['denyRead', 'denyWrite'] as const) {
        expect(() => createBashTool({ workspaceRoot: ws.root, sandbox: 'auto', [option]: [pattern] })).toThrow(
          ConfigurationError,
        );
      }
    });
  }

  it('refuses deny rules with the sandbox off: they would be dropped', () => {
    expect(() => createBashTool({ workspaceRoot: ws.root, ...rules })).toThrow(/only by the OS sandbox/);
  });

  it('accepts relative globs', () => {
    expect(() => createBashTool({ workspaceRoot: ws.root, sandbox: 'auto', ...rules })).not.toThrow();
  });
});

describe.skipIf(!support.available)('deny rules inside the sandbox', () => {
  it('hides deny-read matches (a directory as a whole, and a file anywhere)', async () => {
    for (const command of ['cat secrets/a.txt', 'cat secrets/deep/b.txt', 'ls -R secrets', 'cat notes/private.md']) {
      const result = await run(command);
      expect(result).toMatchObject({ success: true, sandboxed: true });
      expect(JSON.stringify(result), command).not.toMatch(/DENIED-/);
    }
    expect((await run('cat notes/public.md')).stdout).toBe('public\n');
    // Without the rules the same command reads the file: the hiding above is the rules' doing.
    expect((await run('cat secrets/a.txt', {})).stdout).toBe('DENIED-DIR-CANARY\n');
  });

  it('a tool compiles its rules once, when it is made: the list it was given cannot be changed afterwards', async () => {
    const denyRead = ['secrets/**'];
    const tool = createBashTool({ workspaceRoot: ws.root, sandbox: 'required', denyRead });
    denyRead.length = 0;
    const result = await tool.handler(
      { command: 'cat secrets/a.txt', timeout: 20_000 },
      { callId: 'once', signal: new AbortController().signal },
    );
    expect(result).toMatchObject({ success: true, sandboxed: true });
    expect(JSON.stringify(result)).not.toMatch(/DENIED-/);
  });

  it('keeps deny-write matches read-only: no write, removal or rename', async () => {
    const result = await run(
      "sh -c 'echo x > README.md; echo x > locked/config.json; touch locked/new; rm -f README.md; mv locked moved'",
    );
    expect(result.return_code).not.toBe(0);
    expect(readFileSync(ws.path('README.md'), 'utf8')).toBe('readme\n');
    expect(readFileSync(ws.path('locked/config.json'), 'utf8')).toBe('{"locked":true}\n');
    expect((await run("sh -c 'echo fine > notes/public.md'")).return_code).toBe(0);
  });

  it('withholds the output when a deny-read match appears during the command', async () => {
    const result = await run(
      "sh -c 'echo NEW-DENIED-CANARY > notes/private.md.bak; mkdir -p x; echo NEW-DENIED-CANARY > x/private.md; cat x/private.md'",
    );
    expect(JSON.stringify(result)).not.toMatch(/NEW-DENIED-CANARY/);
    expect(result.note).toMatch(/withheld/);
  });

  it('refuses to run when the workspace is larger than the scan can cover and deny rules are set', async () => {
    const result = await run('true', { ...rules, limits: { sandboxScanEntries: 2 } });
    expect(result).toMatchObject({ success: false, error_code: 'sandbox_unenforceable' });
  });
});
