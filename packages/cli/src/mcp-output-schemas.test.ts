import { CLI_BIN as bin, makeWorkspace, requireCliBuild, type TempWorkspace } from '@bough/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let ws: TempWorkspace;
let client: Client | undefined;
beforeEach(() => {
  requireCliBuild();
  ws = makeWorkspace({ 'app.py': 'import os\n\ndef main():\n    return 1\n', 'b.ts': 'export const b: number = 1;\n' });
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  ws.cleanup();
});

async function serve(...extra: string[]): Promise<Client> {
  client = new Client({ name: 'bough-test', version: '0.0.0' });
  const args = [bin, 'mcp', '--workspace', ws.root, '--sandbox', 'off', ...extra];
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
  return client;
}

describe('bough mcp --output-schemas', () => {
  it('advertises an output schema per tool, and every answer (success or failure) matches it', async () => {
    const c = await serve('--output-schemas');
    const { tools } = await c.listTools();
    expect(tools.length).toBeGreaterThan(5);
    for (const tool of tools) expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
    // The SDK client checks each structuredContent against the schema it listed and throws on a mismatch.
    const calls: [string, Record<string, unknown>][] = [
      ['reader', { action: 'read', path: 'app.py' }],
      ['reader', { action: 'list_dir', path: '' }],
      ['reader', { action: 'stat', path: 'app.py' }],
      ['reader', { action: 'read', path: 'missing.py' }],
      ['editor', { action: 'edit', file_path: 'app.py', old_string: 'return 1', new_string: 'return 2' }],
      ['editor', { action: 'edit', file_path: 'app.py', old_string: 'no such text', new_string: 'x' }],
      ['editor', { action: 'write', file_path: 'new.txt', content: 'hello\n' }],
      ['bash', { command: 'echo hi' }],
      ['bash', { command: 'echo a | cat' }],
      ['search', { action: 'grep', pattern: 'main' }],
      ['search', { action: 'find', pattern: '*.py' }],
      ['code_check', { paths: ['app.py'] }],
      ['code_nav', { action: 'outline', path: 'app.py' }],
      ['ast_search', { pattern: 'return $X', lang: 'python' }],
      ['jobs', { action: 'list' }],
      ['jobs', { action: 'kill', job_id: 'nope' }],
    ];
    for (const [name, args] of calls) {
      const result = await c.callTool({ name, arguments: args });
      expect(result.structuredContent, `${name} ${JSON.stringify(args)}`).toHaveProperty('success');
    }
  });

  it('without the flag lists no output schemas, and still sends structured results', async () => {
    const c = await serve();
    const { tools } = await c.listTools();
    expect(tools.every((tool) => tool.outputSchema === undefined)).toBe(true);
    const read = await c.callTool({ name: 'reader', arguments: { action: 'read', path: 'app.py' } });
    expect(read.structuredContent).toMatchObject({ success: true, type: 'text' });
  });
});
