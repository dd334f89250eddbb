import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { generateText, stepCountIs } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ScriptedCall, scriptedModel } from '../test/scripted-model.js';
import { openaiTools } from './openai-tools.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({
    'lib.ts': 'export const a = 1;\nexport const b = 2;\n',
    'old.txt': 'bye\n',
    '.env': 'K=canary\n',
  });
});
afterEach(() => ws.cleanup());

const patch = (operation: Record<string, unknown>): ScriptedCall => ({
  toolName: 'apply_patch',
  input: { callId: 'p', operation },
});
const shell = (...commands: string[]): ScriptedCall => ({ toolName: 'shell', input: { action: { commands } } });
const read = (path: string) => readFileSync(join(ws.root, path), 'utf8');

async function run(turns: ScriptedCall[][]): Promise<unknown[]> {
  const result = await generateText({
    model: scriptedModel(turns),
    tools: openaiTools({ workspaceRoot: ws.root }),
    prompt: 'work on the files',
    stopWhen: stepCountIs(turns.length + 1),
  });
  return result.steps.flatMap((step) => step.toolResults.map((toolResult) => toolResult.output));
}

describe('openaiTools through generateText (apply_patch and shell dialect)', () => {
  it('declares the provider tools OpenAI defines', () => {
    const tools = openaiTools({ workspaceRoot: ws.root });
    expect(tools.apply_patch).toMatchObject({ type: 'provider', id: 'openai.apply_patch' });
    expect(tools.shell).toMatchObject({ type: 'provider', id: 'openai.shell' });
  });

  it('creates, updates and deletes files with apply_patch operations', async () => {
    const outputs = await run([
      [shell('cat lib.ts', "sed -n '1,1p' old.txt")],
      [patch({ type: 'create_file', path: 'src/new.ts', diff: '+export const c = 3;\n' })],
      [
        patch({
          type: 'update_file',
          path: 'lib.ts',
          diff: '@@\n export const a = 1;\n-export const b = 2;\n+export const b = 20;\n',
        }),
      ],
      [patch({ type: 'delete_file', path: 'old.txt' })],
    ]);
    expect(outputs[0]).toMatchObject({
      output: [
        { stdout: 'export const a = 1;\nexport const b = 2;\n', outcome: { type: 'exit', exitCode: 0 } },
        { stdout: 'bye\n', outcome: { type: 'exit', exitCode: 0 } },
      ],
    });
    expect(outputs.slice(1)).toEqual([
      { status: 'completed', output: 'Success. Updated the following files:\nA src/new.ts' },
      { status: 'completed', output: 'Success. Updated the following files:\nM lib.ts' },
      { status: 'completed', output: 'Success. Updated the following files:\nD old.txt' },
    ]);
    expect(read('src/new.ts')).toBe('export const c = 3;\n');
    expect(read('lib.ts')).toBe('export const a = 1;\nexport const b = 20;\n');
    expect(existsSync(join(ws.root, 'old.txt'))).toBe(false);
  });

  it('fails a patch the guard or the file refuses, and changes nothing', async () => {
    const outputs = await run([
      [patch({ type: 'update_file', path: 'lib.ts', diff: '@@\n-export const b = 2;\n+export const b = 3;\n' })],
      [patch({ type: 'create_file', path: '.env', diff: '+K=overwritten\n' })],
    ]);
    expect(outputs[0]).toMatchObject({ status: 'failed' });
    expect(outputs[1]).toMatchObject({ status: 'failed' });
    expect(read('lib.ts')).toContain('b = 2;');
    expect(read('.env')).toBe('K=canary\n');
  });

  it('runs each shell command through bough bash, in the documented output shape', async () => {
    const [output] = await run([[shell('ls', 'ls missing-dir', 'cat .env')]]);
    const entries = (output as { output: { stdout: string; stderr: string; outcome: unknown }[] }).output;
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({ outcome: { type: 'exit', exitCode: 0 } });
    expect(entries[0]?.stdout).toContain('lib.ts');
    expect(entries[1]?.outcome).toMatchObject({ type: 'exit', exitCode: 2 });
    expect(entries[2]?.outcome).toEqual({ type: 'exit', exitCode: 126 });
    expect(JSON.stringify(entries[2])).not.toContain('canary');
  });
});
