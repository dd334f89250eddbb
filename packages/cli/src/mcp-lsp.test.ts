// `bough mcp` answers code_nav and code_check for Go through a gopls it starts itself (one per served workspace),
// and ends it when the session closes. Skipped, with the reason printed, when gopls is not installed.
import { existsSync } from 'node:fs';
import {
  CLI_BIN,
  makeWorkspace,
  notInstalled,
  processesIn,
  requireCliBuild,
  type TempWorkspace,
} from '@bough/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from './test-sleepers.js';

const SKIPPED = 'the bough mcp language-server test is';

let ws: TempWorkspace;
beforeEach(() => {
  requireCliBuild();
  ws = makeWorkspace({
    'go.mod': 'module example.com/demo\n\ngo 1.19\n',
    'calc.go': 'package main\n\n// Add returns the sum.\nfunc Add(a int, b int) int {\n\treturn a + b\n}\n',
    'main.go': 'package main\n\nfunc main() {\n\tprintln(Add(1, "two"))\n}\n',
  });
});
afterEach(() => ws.cleanup());

describe.skipIf(notInstalled('gopls', SKIPPED))('bough mcp with a language server', () => {
  it('navigates (hover and rename too) and checks Go through gopls, and ends gopls when the session closes', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, 'mcp', ws.root],
      env: { ...(process.env as Record<string, string>), GOPROXY: 'off', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'lsp', version: '0' });
    await client.connect(transport);
    const server = transport.pid;
    try {
      const outline = await client.callTool({ name: 'code_nav', arguments: { action: 'outline', path: 'calc.go' } });
      expect(outline.structuredContent).toMatchObject({
        success: true,
        items: [{ kind: 'function', name: 'Add', line: 4 }],
      });
      const checked = await client.callTool({ name: 'code_check', arguments: { paths: ['main.go'] } });
      expect(checked.structuredContent).toMatchObject({ success: true, status: 'diagnostics', tool: 'lsp' });
      const found = (checked.structuredContent as { diagnostics: { line: number; message: string }[] }).diagnostics;
      expect(found.map((d) => d.line)).toEqual([4]);
      const hover = await client.callTool({
        name: 'code_nav',
        arguments: { action: 'hover', path: 'calc.go', symbol: 'Add' },
      });
      expect((hover.structuredContent as { items: { doc?: string }[] }).items[0]?.doc).toContain(
        'Add returns the sum.',
      );
      const renamed = await client.callTool({
        name: 'code_nav',
        arguments: { action: 'rename', path: '.', symbol: 'Add', new_name: 'Sum' },
      });
      expect((renamed.structuredContent as { patch: string }).patch).toContain('+\tprintln(Sum(1, "two"))\n');
      expect(processesIn(ws.root).length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
    await until(() => server === null || !existsSync(`/proc/${server}`));
    await until(() => processesIn(ws.root).length === 0);
    expect(processesIn(ws.root)).toEqual([]);
  });
});
