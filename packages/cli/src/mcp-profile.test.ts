import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_BIN as bin, makeWorkspace, requireCliBuild, type TempWorkspace } from '@bough/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

type TextResult = { isError?: boolean; content: { type: string; text: string }[] };
const text = (result: unknown) => (result as TextResult).content.map((part) => part.text).join('');

let ws: TempWorkspace;
let client: Client | undefined;
beforeEach(() => {
  requireCliBuild();
  ws = makeWorkspace({ 'app.py': 'def main():\n    return 1\n', '.env': 'K=canary\n' });
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  ws.cleanup();
});

async function serve(profile: string): Promise<Client> {
  client = new Client({ name: 'bough-test', version: '0.0.0' });
  const args = [bin, 'mcp', '--workspace', ws.root, '--profile', profile, '--sandbox', 'off'];
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
  return client;
}
const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  text(await c.callTool({ name, arguments: args }));
const file = (path: string) => readFileSync(join(ws.root, path), 'utf8');

describe('bough mcp --profile serves other harnesses tool families over the one toolkit', () => {
  it('anthropic: the text editor and bash, with the guard of the toolkit behind them', async () => {
    const c = await serve('anthropic');
    expect((await c.listTools()).tools.map((tool) => tool.name)).toEqual(['str_replace_based_edit_tool', 'bash']);
    const edit = { command: 'str_replace', path: 'app.py', old_str: 'return 1', new_str: 'return 2' };
    expect(await call(c, 'str_replace_based_edit_tool', edit)).toMatch(/^Error: /);
    expect(await call(c, 'str_replace_based_edit_tool', { command: 'view', path: 'app.py' })).toBe(
      '1: def main():\n2:     return 1',
    );
    expect(await call(c, 'str_replace_based_edit_tool', edit)).toBe(
      'Successfully replaced text at exactly one location.',
    );
    expect(file('app.py')).toContain('return 2');
    expect(await call(c, 'str_replace_based_edit_tool', { command: 'view', path: '.env' })).toMatch(
      /Permission denied/,
    );
  });

  it('openai: apply_patch and shell (an argv)', async () => {
    const c = await serve('openai');
    expect((await c.listTools()).tools.map((tool) => tool.name)).toEqual(['apply_patch', 'shell']);
    expect(await call(c, 'shell', { command: ['cat', 'app.py'] })).toContain('def main');
    const patch = '*** Begin Patch\n*** Update File: app.py\n@@\n-    return 1\n+    return 3\n*** End Patch\n';
    expect(await call(c, 'apply_patch', { input: patch })).toBe('Success. Updated the following files:\nM app.py');
    expect(file('app.py')).toContain('return 3');
  });

  it('gemini: Gemini CLI names and parameters', async () => {
    const c = await serve('gemini');
    expect((await c.listTools()).tools.map((tool) => tool.name)).toEqual([
      'read_file',
      'write_file',
      'replace',
      'glob',
      'search_file_content',
      'run_shell_command',
      'list_directory',
    ]);
    expect(await call(c, 'read_file', { file_path: 'app.py' })).toBe('def main():\n    return 1');
    const replace = { file_path: 'app.py', old_string: 'return 1', new_string: 'return 4' };
    expect(await call(c, 'replace', replace)).toBe('Successfully modified file: app.py (1 replacements).');
    expect(await call(c, 'write_file', { file_path: 'n.txt', content: 'x\n' })).toBe(
      'Successfully created and wrote to new file: n.txt.',
    );
    expect(await call(c, 'list_directory', {})).toContain('app.py');
    expect(await call(c, 'search_file_content', { pattern: 'return 4' })).toContain('app.py');
    expect(await call(c, 'run_shell_command', { command: 'ls' })).toMatch(/Exit Code: 0/);
  });

  it('minimal: read, write, edit, bash, with argument aliases', async () => {
    const c = await serve('minimal');
    expect((await c.listTools()).tools.map((tool) => tool.name)).toEqual(['read', 'write', 'edit', 'bash']);
    expect(await call(c, 'read', { path: 'app.py' })).toContain('return 1');
    await call(c, 'edit', { file_path: 'app.py', oldText: 'return 1', newText: 'return 5' });
    expect(file('app.py')).toContain('return 5');
  });

  it('refuses an unknown profile', async () => {
    await expect(serve('claude')).rejects.toThrow();
  });
});
