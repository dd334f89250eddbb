import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolRegistry, toMcpTool } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, toolkitBranch } from '../../test/helpers.js';
import { dialectTools } from './profiles.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'alpha\nbeta\n', 'sub/b.txt': 'b\n' });
});
afterEach(() => ws.cleanup());
const file = (path: string) => readFileSync(join(ws.root, path), 'utf8');

describe('the toolkit accepts the argument names of other harnesses', () => {
  it('Anthropic text editor names on the editor: command, path, old_str, new_str, file_text', async () => {
    const branch = toolkitBranch(ws.root);
    expect(await call(branch, 'reader', { action: 'view', file_path: 'a.txt' })).toMatchObject({ success: true });
    const edit = { command: 'str_replace', path: 'a.txt', old_str: 'beta', new_str: 'gamma' };
    expect(await call(branch, 'editor', edit)).toMatchObject({ success: true, action: 'edit' });
    expect(file('a.txt')).toBe('alpha\ngamma\n');
    const create = { command: 'create', path: 'new.txt', file_text: 'made\n' };
    expect(await call(branch, 'editor', create)).toMatchObject({ success: true });
    expect(file('new.txt')).toBe('made\n');
  });

  it('pi / opencode spellings (oldText, newText, filePath) and camelCase of our own fields', async () => {
    const branch = toolkitBranch(ws.root);
    await call(branch, 'reader', { action: 'read', absolute_path: 'a.txt' });
    const edit = { action: 'edit', filePath: 'a.txt', oldText: 'a', newText: 'A', replaceAll: true };
    expect(await call(branch, 'editor', edit)).toMatchObject({ success: true, replacements: 3 });
    expect(file('a.txt')).toBe('AlphA\nbetA\n');
  });

  it('Codex and Claude Code names on bash, search and jobs', async () => {
    const branch = toolkitBranch(ws.root, { tools: ['bash', 'search', 'jobs'] });
    expect(await call(branch, 'bash', { cmd: 'pwd -P', workdir: 'sub', timeout_ms: 5_000 })).toMatchObject({
      success: true,
      stdout: `${join(ws.root, 'sub')}\n`,
    });
    expect(await call(branch, 'search', { action: 'grep', query: 'beta', dir_path: '' })).toMatchObject({
      success: true,
      count: 1,
    });
    expect(await call(branch, 'search', { action: 'glob', pattern: '*.txt' })).toMatchObject({ count: 2 });
    // Renamed, so the job is looked for (and not found) instead of the request being refused.
    const kill = await call(branch, 'jobs', { action: 'kill', bash_id: 'nope' });
    expect(kill).toMatchObject({ success: false });
    expect(kill.error_code).not.toBe('invalid_request');
  });

  it('an alias sent beside our own name is refused by validation, naming it', async () => {
    const branch = toolkitBranch(ws.root);
    const both = { action: 'edit', file_path: 'a.txt', path: 'sub/b.txt', old_string: 'x', new_string: 'y' };
    const refused = await call(branch, 'editor', both);
    expect(refused).toMatchObject({ success: false, error_code: 'invalid_request' });
    expect(String(refused.error)).toContain('path');
    expect(file('sub/b.txt')).toBe('b\n');
  });

  it('the minimal profile renames too, advertising only its own fields', async () => {
    const registry = new ToolRegistry();
    registry.register(dialectTools('minimal', toolkitBranch(ws.root).registry));
    const run = async (name: string, args: unknown) => (await registry.invoke(name, args)).output;
    expect(await run('read', { path: 'a.txt' })).toMatchObject({ success: true });
    expect(await run('edit', { path: 'a.txt', oldText: 'alpha', newText: 'omega' })).toMatchObject({ success: true });
    expect(await run('write', { file_path: 'w.txt', file_text: 'w\n' })).toMatchObject({ success: true });
    expect(await run('bash', { cmd: 'echo hi' })).toMatchObject({ success: true, stdout: 'hi\n' });
    expect(file('a.txt')).toBe('omega\nbeta\n');
    expect(file('w.txt')).toBe('w\n');
  });

  it('the gemini profile takes the names of older Gemini CLI releases through the same table, advertising the current ones', async () => {
    const registry = new ToolRegistry();
    const tools = dialectTools('gemini', toolkitBranch(ws.root).registry);
    registry.register(tools);
    const run = async (name: string, args: unknown) => (await registry.invoke(name, args)).output;
    expect(await run('read_file', { absolute_path: 'a.txt' })).toBe('alpha\nbeta');
    expect(await run('read_file', { path: 'sub/b.txt' })).toBe('b');
    expect(await run('list_directory', { path: 'sub' })).toBe('Directory listing for sub:\nsub/b.txt');
    expect(String(await run('run_shell_command', { command: 'ls', directory: 'sub' }))).toContain('Stdout: b.txt');
    const fields = tools.flatMap((tool) => Object.keys(toMcpTool(tool).inputSchema.properties as object));
    expect(fields).not.toContain('absolute_path');
    expect(fields).not.toContain('path');
    expect(fields).not.toContain('directory');
  });
});
