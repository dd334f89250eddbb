import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeWorkspace, type TempWorkspace } from '@branchkit/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

type TextResult = { isError?: boolean; content: { type: string; text: string }[] };
const text = (result: unknown) => (result as TextResult).content.map((part) => part.text).join('');

describe('branchkit mcp over stdio with the real MCP SDK client', () => {
  let ws: TempWorkspace;
  let client: Client;
  beforeEach(async () => {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`pnpm build\` before these tests (pnpm test does).`);
    ws = makeWorkspace({ 'src/app.py': 'def main():\n    return 1\n' });
    client = new Client({ name: 'branchkit-test', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--workspace', ws.root],
        stderr: 'ignore',
      }),
    );
  });
  afterEach(async () => {
    await client.close();
    ws.cleanup();
  });

  it('lists the coding toolkit and enforces read-before-edit across the session', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'reader',
      'editor',
      'bash',
      'search',
      'code_check',
      'code_nav',
      'ast_search',
      'context',
    ]);
    expect(tools[0]?.inputSchema.type).toBe('object');

    const edit = { action: 'edit', file_path: 'src/app.py', old_string: 'return 1', new_string: 'return 2' };
    const refused = await client.callTool({ name: 'editor', arguments: edit });
    expect(refused.isError).toBe(true);
    const read = await client.callTool({ name: 'reader', arguments: { action: 'read', path: 'src/app.py' } });
    expect(read.isError).toBeFalsy();
    expect(text(read)).toContain('def main');
    const allowed = await client.callTool({ name: 'editor', arguments: edit });
    expect(allowed.isError).toBeFalsy();
  });

  it('returns invalid arguments and escapes as readable isError results', async () => {
    const bad = await client.callTool({ name: 'bash', arguments: { command: 1 } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/invalid_request/);
    const outside = await client.callTool({
      name: 'reader',
      arguments: { action: 'read', path: '../ws-evil/secret.txt' },
    });
    expect(outside.isError).toBe(true);
    expect(text(outside)).not.toContain('OUTSIDE-SECRET-CANARY');
  });
});
