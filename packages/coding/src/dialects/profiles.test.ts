import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolRegistry } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolkitBranch } from '../../test/helpers.js';
import { executeApplyPatch } from './apply-patch.js';
import { type DialectProfile, dialectTools } from './profiles.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'a.txt': 'x\ny\nx\n', 'sub/b.txt': 'b\n' });
});
afterEach(() => ws.cleanup());

function served(profile: Exclude<DialectProfile, 'full'>) {
  const toolkit = toolkitBranch(ws.root).registry;
  const registry = new ToolRegistry();
  registry.register(dialectTools(profile, toolkit));
  return async (name: string, args: unknown) => (await registry.invoke(name, args)).output;
}
const file = (path: string) => readFileSync(join(ws.root, path), 'utf8');

describe('dialect profiles over the toolkit', () => {
  it('gemini replace checks expected_replacements before writing', async () => {
    const call = served('gemini');
    await call('read_file', { file_path: 'a.txt' });
    const base = { file_path: 'a.txt', old_string: 'x', new_string: 'z' };
    expect(await call('replace', base)).toEqual({
      success: false,
      error: 'Failed to edit, expected 1 occurrence but found 2. No edits made.',
      error_code: 'multiple_matches',
    });
    expect(await call('replace', { ...base, expected_replacements: 3 })).toMatchObject({
      success: false,
      error: 'Failed to edit, expected 3 occurrences but found 2. No edits made.',
    });
    expect(file('a.txt')).toBe('x\ny\nx\n');
    expect(await call('replace', { ...base, expected_replacements: 2 })).toBe(
      'Successfully modified file: a.txt (2 replacements).',
    );
    expect(file('a.txt')).toBe('z\ny\nz\n');
  });

  it('gemini lists directories with [DIR] marks and runs commands in dir_path', async () => {
    const call = served('gemini');
    expect(await call('list_directory', {})).toBe('Directory listing for .:\n[DIR] sub\na.txt');
    expect(await call('run_shell_command', { command: 'ls', dir_path: 'sub' })).toContain('Stdout: b.txt');
  });

  it('minimal accepts the argument names of other harnesses', async () => {
    const call = served('minimal');
    await call('read', { file_path: 'sub/b.txt' });
    await call('edit', { path: 'sub/b.txt', old_str: 'b', new_str: 'c' });
    expect(file('sub/b.txt')).toBe('c\n');
  });

  it('applies an update_file diff whose hunk has no @@ line', async () => {
    const registry = toolkitBranch(ws.root).registry;
    await registry.invoke('reader', { action: 'read', path: 'sub/b.txt' });
    const done = await executeApplyPatch(registry, {
      operation: { type: 'update_file', path: 'sub/b.txt', diff: '-b\n+d\n' },
    });
    expect(done.status).toBe('completed');
    expect(file('sub/b.txt')).toBe('d\n');
  });

  it('refuses a toolkit without a tool the profile calls, naming it', () => {
    const toolkit = toolkitBranch(ws.root, { tools: ['reader', 'editor', 'bash'] }).registry;
    expect(() => dialectTools('gemini', toolkit)).toThrow(/gemini profile calls search/);
    expect(dialectTools('anthropic', toolkit).map((tool) => tool.name)).toEqual([
      'str_replace_based_edit_tool',
      'bash',
    ]);
  });
});
