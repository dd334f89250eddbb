// The plain-function door: each executor hands a failed call back as a typed value in its provider's wording
// (Anthropic's text editor and bash: a { success: false } failure whose error is the documented text; apply_patch: its
// own `failed` status; shell: `Error: …` on stderr with the exit status a shell reports for a command it cannot run). The same cases run
// through MCP in the CLI's conformance suite and through generateText in @bough/ai-sdk.
import { isToolFailure } from '@bough/core';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolkitBranch } from '../../test/helpers.js';
import { executeAnthropicBash } from './anthropic-bash.js';
import { executeApplyPatch } from './apply-patch.js';
import { executeOpenAiShell } from './openai-shell.js';
import { executeTextEditor } from './text-editor.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'app.py': 'x = 1\nx = 1\n' });
});
afterEach(() => ws.cleanup());

type Registry = ReturnType<typeof toolkitBranch>['registry'];
const failures: [string, (registry: Registry) => Promise<unknown>, unknown][] = [
  [
    'text editor: a missing file',
    (r) => executeTextEditor(r, { command: 'view', path: 'absent.py' }),
    { success: false, error: 'Error: File not found', error_code: 'not_found' },
  ],
  [
    'text editor: several matches',
    async (r) => {
      await executeTextEditor(r, { command: 'view', path: 'app.py' });
      return executeTextEditor(r, { command: 'str_replace', path: 'app.py', old_str: 'x = 1', new_str: 'y' });
    },
    {
      success: false,
      error: expect.stringMatching(/^Error: Found 2 matches for replacement text\. Please provide more context/),
      error_code: 'multiple_matches',
    },
  ],
  [
    'text editor: an unread file',
    (r) => executeTextEditor(r, { command: 'str_replace', path: 'app.py', old_str: 'x', new_str: 'y' }),
    { success: false, error: expect.stringMatching(/^Error: .*read/i), error_code: 'not_read' },
  ],
  [
    'bash: a command with a shell operator',
    (r) => executeAnthropicBash(r, { command: 'ls | wc -l' }),
    { success: false, error: expect.stringMatching(/^Error: /), error_code: expect.any(String) },
  ],
  [
    'bash: no command',
    (r) => executeAnthropicBash(r, {}),
    { success: false, error: 'Error: `command` is required.', error_code: 'invalid_request' },
  ],
  [
    'apply_patch: deleting a missing file',
    (r) => executeApplyPatch(r, { operation: { type: 'delete_file', path: 'absent.py' } }),
    { status: 'failed', output: expect.stringMatching(/^Error: /) },
  ],
  [
    'shell: a program that does not exist',
    (r) => executeOpenAiShell(r, { action: { commands: ['no-such-program-here'] } }),
    { output: [{ stdout: '', stderr: expect.stringMatching(/^Error: \S/), outcome: { type: 'exit', exitCode: 126 } }] },
  ],
  [
    'shell: a command with a shell operator',
    (r) => executeOpenAiShell(r, { action: { commands: ['ls | wc -l'] } }),
    { output: [{ stdout: '', stderr: expect.stringMatching(/^Error: \S/), outcome: { type: 'exit', exitCode: 126 } }] },
  ],
  [
    'shell: no command',
    (r) => executeOpenAiShell(r, { action: { commands: [] } }),
    {
      output: [
        { stdout: '', stderr: expect.stringMatching(/^Error: .*no command/), outcome: { type: 'exit', exitCode: 126 } },
      ],
    },
  ],
];

describe('a failed dialect call from the plain functions', () => {
  it.each(failures)('%s', async (_case, run, expected) => {
    expect(await run(toolkitBranch(ws.root).registry)).toEqual(expected);
  });

  it('a command that ran and exited non-zero is a result, not a failure', async () => {
    const done = await executeAnthropicBash(toolkitBranch(ws.root).registry, { command: 'ls absent-dir' });
    expect(isToolFailure(done)).toBe(false);
    expect(done).toMatch(/\[exit code 2\]$/);
  });
});
