import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codingToolkit } from '@bough/coding';
import { Branch } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { generateText, stepCountIs } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ScriptedCall, scriptedModel } from '../test/scripted-model.js';
import { anthropicTools } from './anthropic-tools.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'app.py': 'def greet():\n    return "hi"\n', '.env': 'TOKEN=canary\n' });
});
afterEach(() => ws.cleanup());

const edit = (input: Record<string, unknown>): ScriptedCall => ({ toolName: 'str_replace_based_edit_tool', input });

/**
 * Runs a scripted conversation through generateText and returns what the model was sent for each tool result, in
 * order: a text result as its text, anything else (an `error-text` failure) as the output part itself.
 */
async function run(turns: ScriptedCall[][], maxCharacters?: number): Promise<unknown[]> {
  const tools = anthropicTools({ workspaceRoot: ws.root }, maxCharacters ? { maxCharacters } : {});
  const model = scriptedModel(turns);
  await generateText({ model, tools, prompt: 'work on the files', stopWhen: stepCountIs(turns.length + 1) });
  const prompt = model.doGenerateCalls.at(-1)?.prompt ?? [];
  return prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .flatMap((part) => (part.type === 'tool-result' ? [part.output] : []))
    .map((output) => (output.type === 'text' ? output.value : output));
}

describe('anthropicTools through generateText (text editor and bash dialect)', () => {
  it('declares the provider tools Anthropic defines', () => {
    const tools = anthropicTools({ workspaceRoot: ws.root }, { maxCharacters: 500 });
    expect(tools.str_replace_based_edit_tool).toMatchObject({
      type: 'provider',
      id: 'anthropic.text_editor_20250728',
      args: { maxCharacters: 500 },
    });
    expect(tools.bash).toMatchObject({ type: 'provider', id: 'anthropic.bash_20250124' });
  });

  it('builds its toolkit from the profile needs, and refuses a registry lacking one of them, naming it', () => {
    const branch = new Branch({ name: 'x', workspaceRoot: ws.root });
    branch.registerTools(codingToolkit({ workspaceRoot: ws.root, tools: ['reader', 'editor'] }));
    expect(() => anthropicTools(branch)).toThrow(/anthropic tools call bash/);
  });

  it('views, replaces, creates and inserts with the documented texts', async () => {
    const outputs = await run([
      [edit({ command: 'view', path: 'app.py' })],
      [edit({ command: 'str_replace', path: 'app.py', old_str: 'return "hi"', new_str: 'return "hello"' })],
      [edit({ command: 'create', path: 'pkg/new.py', file_text: 'A = 1\n' })],
      [edit({ command: 'insert', path: 'app.py', insert_line: 0, insert_text: 'import os\n' })],
      [edit({ command: 'view', path: 'app.py', view_range: [2, -1] })],
    ]);
    expect(outputs).toEqual([
      '1: def greet():\n2:     return "hi"',
      'Successfully replaced text at exactly one location.',
      'File created successfully at: pkg/new.py',
      'Text inserted after line 0 of app.py.',
      '2: def greet():\n3:     return "hello"',
    ]);
    expect(readFileSync(join(ws.root, 'app.py'), 'utf8')).toBe('import os\ndef greet():\n    return "hello"\n');
    expect(readFileSync(join(ws.root, 'pkg/new.py'), 'utf8')).toBe('A = 1\n');
  });

  it('cuts views at max_characters', async () => {
    expect(await run([[edit({ command: 'view', path: 'app.py' })]], 10)).toEqual(['1: def gre']);
  });

  it('keeps the guard and the policy: an unread file is not replaced, .env is refused, a missing file is named', async () => {
    const outputs = await run([
      [edit({ command: 'str_replace', path: 'app.py', old_str: 'return "hi"', new_str: 'x' })],
      [edit({ command: 'view', path: '.env' })],
      [edit({ command: 'view', path: 'missing.py' })],
      [{ toolName: 'bash', input: { command: 'cat .env' } }],
    ]);
    const failed = (wording: RegExp) => ({ type: 'error-text', value: expect.stringMatching(wording) });
    expect(outputs[0]).toEqual(failed(/^Error: .*read/i));
    expect(readFileSync(join(ws.root, 'app.py'), 'utf8')).toContain('return "hi"');
    expect(outputs[1]).toEqual(failed(/^Error: Permission denied\./));
    expect(outputs[2]).toEqual({ type: 'error-text', value: 'Error: File not found' });
    expect(JSON.stringify(outputs[3])).not.toContain('canary');
    expect(outputs[3]).toEqual(failed(/^Error: /));
  });

  it('runs commands through bough bash and shows their output and exit status', async () => {
    const outputs = await run([
      [{ toolName: 'bash', input: { command: 'ls' } }],
      [{ toolName: 'bash', input: { command: 'ls no-such-dir' } }],
      [{ toolName: 'bash', input: { command: '', restart: true } }],
    ]);
    expect(outputs[0]).toContain('app.py');
    expect(outputs[1]).toMatch(/no-such-dir[\s\S]*\[exit code 2\]$/);
    expect(outputs[2]).toBe('tool has been restarted.');
  });
});
