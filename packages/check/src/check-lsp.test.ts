// code_check for Go and C through real language servers (gopls, clangd); skipped, with the reason printed, when absent.
import { LspClient } from '@bough/lsp';
import { makeWorkspace, notInstalled, type TempWorkspace } from '@bough/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { handleCodeCheck } from './handle-check.js';

const SKIPPED = 'its code_check tests are';

let ws: TempWorkspace | undefined;
let lsp: LspClient | undefined;
afterEach(async () => {
  await lsp?.dispose();
  ws?.cleanup();
});

describe('code_check through language servers', () => {
  it.skipIf(notInstalled('clangd', SKIPPED))(
    'checks C files through clangd, for the text on disk at each call',
    async () => {
      ws = makeWorkspace({ 'compile_flags.txt': '-std=c11\n', 'main.c': 'int main(void) {\n  return 0;\n}\n' });
      lsp = new LspClient({ workspaceRoot: ws.root });
      const options = { workspaceRoot: ws.root, lsp };
      expect(await handleCodeCheck({ paths: ['main.c'] }, options)).toMatchObject({
        success: true,
        status: 'ok',
        tool: 'lsp',
        files_checked: 1,
      });
      ws.write('main.c', 'int main(void) {\n  return missing;\n}\n');
      const broken = await handleCodeCheck({ paths: [] }, options);
      expect(broken).toMatchObject({
        success: true,
        status: 'diagnostics',
        diagnostics: [{ file: 'main.c', line: 2, col: 10, severity: 'error', source: 'clang' }],
      });
      // Without a client, C is not checked (as before): nothing to check, and the summary says so.
      expect(await handleCodeCheck({ paths: ['main.c'] }, { workspaceRoot: ws.root })).toMatchObject({
        success: true,
        files_checked: 0,
      });
    },
  );

  it('answers unavailable with the install command when the server is missing', async () => {
    ws = makeWorkspace({ 'go.mod': 'module x\n\ngo 1.19\n', 'main.go': 'package main\n\nfunc main() {}\n' });
    lsp = new LspClient({ workspaceRoot: ws.root, baseEnv: { PATH: '/nonexistent' } });
    const result = await handleCodeCheck({ paths: ['main.go'] }, { workspaceRoot: ws.root, lsp });
    expect(result).toMatchObject({ success: false, status: 'unavailable', error_code: 'unavailable' });
    expect(result.success === false && result.error).toContain('gopls');
  });

  it.skipIf(notInstalled('gopls', SKIPPED))('checks Go files through gopls beside Python in one call', async () => {
    ws = makeWorkspace({
      'go.mod': 'module example.com/x\n\ngo 1.19\n',
      'main.go': 'package main\n\nfunc main() {\n\tvar n int = "text"\n\t_ = n\n}\n',
      'tool.py': 'import os\n',
    });
    lsp = new LspClient({ workspaceRoot: ws.root, env: { GOPROXY: 'off' } });
    const result = await handleCodeCheck({ paths: [] }, { workspaceRoot: ws.root, lsp });
    if (!result.success) throw new Error(result.error);
    expect(result.tool).toBe('ruff+lsp');
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.severity}`)).toEqual(
      expect.arrayContaining(['main.go:4:error', 'tool.py:1:warning']),
    );
  });
});
