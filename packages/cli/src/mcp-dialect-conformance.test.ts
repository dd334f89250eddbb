import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DialectProfile, dialectTools } from '@bough/coding';
import { ToolRegistry } from '@bough/core';
import { createMcpServer } from '@bough/mcp';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolkitBranch } from './toolset.js';

// Conformance of the dialect profiles as an MCP client sees them (the SDK client, in memory), with cases written
// from the behaviour the providers document and their own test suites exercise: Codex's apply_patch scenarios and
// Gemini CLI's edit tool. The cases are ours; where bough deliberately differs, the case says so.

type TextResult = { isError?: boolean; content: { type: string; text: string }[] };
let ws: TempWorkspace;
let client: Client | undefined;
beforeEach(() => {
  ws = makeWorkspace({
    'modify.txt': 'line1\nline2\n',
    'delete.txt': 'obsolete\n',
    'multi.txt': 'a\nb\nc\nd\ne\nf\ng\n',
    'old/name.txt': 'from\n',
    'tail.txt': 'first\nsecond\n',
    'twice.txt': 'x\ny\nx\n',
  });
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  ws.cleanup();
});

async function serve(profile: Exclude<DialectProfile, 'full'>) {
  const served = new ToolRegistry();
  served.register(dialectTools(profile, toolkitBranch(ws.root, { commandSandbox: 'off' }).registry));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(served, { name: 'bough', version: '0.0.0' }).connect(serverSide);
  client = new Client({ name: 'conformance', version: '0.0.0' });
  await client.connect(clientSide);
  const c = client;
  return async (name: string, args: Record<string, unknown>) => {
    const result = (await c.callTool({ name, arguments: args })) as TextResult;
    return { text: result.content.map((part) => part.text).join(''), isError: result.isError === true };
  };
}
const file = (path: string) => readFileSync(join(ws.root, path), 'utf8');
const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

describe('openai profile: apply_patch as Codex scenarios describe it', () => {
  async function openai() {
    const call = await serve('openai');
    // The read-before-edit guard holds behind apply_patch: the model reads through shell first.
    for (const path of ['modify.txt', 'delete.txt', 'multi.txt', 'old/name.txt', 'tail.txt'])
      await call('shell', { command: ['cat', path] });
    return call;
  }

  it('adds a file under a directory that does not exist yet', async () => {
    const call = await openai();
    const done = await call('apply_patch', { input: patch('*** Add File: nested/new.txt', '+hello', '+world') });
    expect(done).toEqual({ text: 'Success. Updated the following files:\nA nested/new.txt', isError: false });
    expect(file('nested/new.txt')).toBe('hello\nworld\n');
  });

  it('adds, deletes and updates in one patch', async () => {
    const call = await openai();
    const done = await call('apply_patch', {
      input: patch(
        '*** Add File: made.txt',
        '+new',
        '*** Delete File: delete.txt',
        '*** Update File: modify.txt',
        '@@',
        ' line1',
        '-line2',
        '+changed',
      ),
    });
    expect(done.isError).toBe(false);
    expect(done.text.split('\n').slice(1).sort()).toEqual(['A made.txt', 'D delete.txt', 'M modify.txt']);
    expect(file('made.txt')).toBe('new\n');
    expect(existsSync(join(ws.root, 'delete.txt'))).toBe(false);
    expect(file('modify.txt')).toBe('line1\nchanged\n');
  });

  it('applies several chunks to one file, and a chunk that only adds lines', async () => {
    const call = await openai();
    const input = patch('*** Update File: multi.txt', '@@', ' a', '-b', '+B', '@@', ' e', '+e2', ' f', '-g', '+G');
    expect((await call('apply_patch', { input })).isError).toBe(false);
    expect(file('multi.txt')).toBe('a\nB\nc\nd\ne\ne2\nf\nG\n');
  });

  it('moves a file into a new directory while changing it', async () => {
    const call = await openai();
    const input = patch('*** Update File: old/name.txt', '*** Move to: renamed/dir/name.txt', '@@', '-from', '+to');
    expect((await call('apply_patch', { input })).isError).toBe(false);
    expect(existsSync(join(ws.root, 'old/name.txt'))).toBe(false);
    expect(file('renamed/dir/name.txt')).toBe('to\n');
  });

  it('honours the end-of-file marker', async () => {
    const call = await openai();
    const input = patch('*** Update File: tail.txt', '@@', ' first', '-second', '+second updated', '*** End of File');
    expect((await call('apply_patch', { input })).isError).toBe(false);
    expect(file('tail.txt')).toBe('first\nsecond updated\n');
  });

  it.each([
    ['an empty patch', patch()],
    ['context the file does not hold', patch('*** Update File: modify.txt', '@@', '-no such line', '+x')],
    ['deleting a file that does not exist', patch('*** Delete File: missing.txt')],
    ['updating a file that does not exist', patch('*** Update File: missing.txt', '@@', '-a', '+b')],
    ['a hunk header that is not one', patch('*** Frobnicate File: modify.txt')],
  ])('refuses %s and changes nothing', async (_case, input) => {
    const call = await openai();
    const done = await call('apply_patch', { input });
    expect(done.isError).toBe(true);
    expect(done.text).toMatch(/^Error: /);
    expect(file('modify.txt')).toBe('line1\nline2\n');
  });

  it('is all or nothing: a failing second file leaves the first untouched (Codex keeps the first change)', async () => {
    const call = await openai();
    const input = patch('*** Add File: created.txt', '+x', '*** Update File: modify.txt', '@@', '-absent', '+y');
    expect((await call('apply_patch', { input })).isError).toBe(true);
    expect(existsSync(join(ws.root, 'created.txt'))).toBe(false);
  });
});

describe('gemini profile: replace as Gemini CLI tests it', () => {
  it('replaces one occurrence, refuses an ambiguous or missing one, and replaces all on request', async () => {
    const call = await serve('gemini');
    await call('read_file', { absolute_path: 'twice.txt' });
    const base = { file_path: 'twice.txt', old_string: 'x', new_string: 'z' };
    expect((await call('replace', base)).text).toBe(
      'Failed to edit, expected 1 occurrence but found 2. No edits made.',
    );
    expect((await call('replace', { ...base, old_string: 'nope' })).text).toMatch(
      /^Failed to edit, 0 occurrences found for old_string in twice\.txt\. No edits made\./,
    );
    expect(file('twice.txt')).toBe('x\ny\nx\n');
    // Older releases count with expected_replacements; newer ones say allow_multiple.
    expect((await call('replace', { ...base, allow_multiple: true })).text).toBe(
      'Successfully modified file: twice.txt (2 replacements).',
    );
    expect(file('twice.txt')).toBe('z\ny\nz\n');
  });

  it('writes a new file and says it created it, then that it overwrote it', async () => {
    const call = await serve('gemini');
    const write = { file_path: 'fresh.txt', content: 'one\n' };
    expect((await call('write_file', write)).text).toBe('Successfully created and wrote to new file: fresh.txt.');
    expect((await call('write_file', { ...write, content: 'two\n' })).text).toBe(
      'Successfully overwrote file: fresh.txt.',
    );
    expect(file('fresh.txt')).toBe('two\n');
  });
});

describe('anthropic profile: the text editor as Anthropic documents it', () => {
  it('views rows as "N: text", honours view_range with -1, inserts at line 0, and lists a directory', async () => {
    const call = await serve('anthropic');
    const tool = 'str_replace_based_edit_tool';
    expect((await call(tool, { command: 'view', path: 'multi.txt', view_range: [6, -1] })).text).toBe('6: f\n7: g');
    expect(
      (await call(tool, { command: 'insert', path: 'tail.txt', insert_line: 0, insert_text: 'zero\n' })).isError,
    ).toBe(false);
    expect(file('tail.txt')).toBe('zero\nfirst\nsecond\n');
    expect((await call(tool, { command: 'view', path: 'old' })).text).toContain('name.txt');
  });

  it('answers with the error texts the docs give for a missing file, several matches and no match', async () => {
    const call = await serve('anthropic');
    const tool = 'str_replace_based_edit_tool';
    expect((await call(tool, { command: 'view', path: 'absent.py' })).text).toBe('Error: File not found');
    await call(tool, { command: 'view', path: 'twice.txt' });
    const replace = { command: 'str_replace', path: 'twice.txt', new_str: 'z' };
    const several = (await call(tool, { ...replace, old_str: 'x' })).text;
    expect(several.split('\n')[0]).toBe(
      'Error: Found 2 matches for replacement text. Please provide more context to make a unique match.',
    );
    const none = (await call(tool, { ...replace, old_str: 'nope' })).text;
    expect(none.split('\n')[0]).toBe('Error: No match found for replacement. Please check your text and try again.');
    expect(file('twice.txt')).toBe('x\ny\nx\n');
    expect((await call(tool, { ...replace, old_str: 'y' })).text).toBe(
      'Successfully replaced text at exactly one location.',
    );
  });
});

// Every dialect's failed call, as an MCP client receives it: `isError: true`, and the text that dialect's provider
// documents (not bough's own `Error (code): …`). The plain-function and AI SDK doors are tested with the same cases in
// @bough/coding and @bough/ai-sdk.
describe('a failed dialect call is an MCP error, in the wording of its provider', () => {
  const cases: [Exclude<DialectProfile, 'full'>, string, Record<string, unknown>, RegExp][] = [
    ['anthropic', 'str_replace_based_edit_tool', { command: 'view', path: 'absent.py' }, /^Error: File not found$/],
    [
      'anthropic',
      'str_replace_based_edit_tool',
      { command: 'str_replace', path: 'twice.txt', old_str: 'x', new_str: 'z' },
      /^Error: .*read/i,
    ],
    [
      'anthropic',
      'str_replace_based_edit_tool',
      { command: 'view', path: 'twice.txt', view_range: [3, 1] },
      /^Error: `view_range` must be/,
    ],
    ['anthropic', 'bash', { command: 'ls | wc -l' }, /^Error: /],
    ['openai', 'apply_patch', { input: patch('*** Delete File: missing.txt') }, /^Error: /],
    ['openai', 'shell', { command: ['no-such-program-here'] }, /^Error: /],
    ['gemini', 'read_file', { file_path: 'absent.py' }, /^Error: /],
    ['gemini', 'replace', { file_path: 'twice.txt', old_string: 'x', new_string: 'z' }, /^Error: .*read/i],
    ['gemini', 'run_shell_command', { command: 'ls | wc -l' }, /^Error: /],
    ['minimal', 'read', { file_path: 'absent.py' }, /^Error \(not_found\): /],
  ];

  it.each(cases)('%s %s %j', async (profile, tool, args, wording) => {
    const call = await serve(profile);
    const done = await call(tool, args);
    expect(done.isError).toBe(true);
    expect(done.text).toMatch(wording);
  });
});
