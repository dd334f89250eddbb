import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolkitBranch } from '../../test/helpers.js';
import { executeTextEditor } from './text-editor.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({
    'a.py': 'def f():\n    return 1\n\nx = 1\nx = 1\n',
    'src/b.txt': 'one\ntwo\nthree\n',
    'empty.txt': '',
    '.env': 'SECRET=1\n',
  });
});
afterEach(() => ws.cleanup());

const text = (path: string) => readFileSync(join(ws.root, path), 'utf8');

describe('executeTextEditor (the Anthropic text editor over the toolkit)', () => {
  it('views numbered rows as "N: text", a view_range window, and cuts at max_characters', async () => {
    const { registry } = toolkitBranch(ws.root);
    expect(await executeTextEditor(registry, { command: 'view', path: 'src/b.txt' })).toBe('1: one\n2: two\n3: three');
    expect(await executeTextEditor(registry, { command: 'view', path: 'src/b.txt', view_range: [2, -1] })).toBe(
      '2: two\n3: three',
    );
    const cut = await executeTextEditor(registry, { command: 'view', path: 'src/b.txt' }, { maxCharacters: 7 });
    expect(cut).toBe('1: one\n');
    expect(await executeTextEditor(registry, { command: 'view', path: 'src' })).toContain('src/b.txt');
    expect(await executeTextEditor(registry, { command: 'view', path: 'nope.txt' })).toEqual({
      success: false,
      error: 'Error: File not found',
      error_code: 'not_found',
    });
  });

  it('replaces exactly one match and answers with the documented texts for none and several', async () => {
    const { registry } = toolkitBranch(ws.root);
    await executeTextEditor(registry, { command: 'view', path: 'a.py' });
    expect(
      await executeTextEditor(registry, { command: 'str_replace', path: 'a.py', old_str: 'x = 1', new_str: 'y' }),
    ).toMatchObject({
      success: false,
      error: expect.stringMatching(
        /^Error: Found 2 matches for replacement text\. Please provide more context to make a unique match\./,
      ),
    });
    expect(
      await executeTextEditor(registry, { command: 'str_replace', path: 'a.py', old_str: 'zzz_absent', new_str: 'y' }),
    ).toMatchObject({
      success: false,
      error: expect.stringMatching(/^Error: No match found for replacement\. Please check your text and try again\./),
    });
    expect(
      await executeTextEditor(registry, {
        command: 'str_replace',
        path: 'a.py',
        old_str: 'return 1',
        new_str: 'return 2',
      }),
    ).toBe('Successfully replaced text at exactly one location.');
    expect(text('a.py')).toContain('    return 2\n');
  });

  it('creates files and inserts after a line (0: at the top)', async () => {
    const { registry } = toolkitBranch(ws.root);
    expect(await executeTextEditor(registry, { command: 'create', path: 'new/c.txt', file_text: 'hi\n' })).toBe(
      'File created successfully at: new/c.txt',
    );
    expect(text('new/c.txt')).toBe('hi\n');
    await executeTextEditor(registry, { command: 'view', path: 'src/b.txt' });
    expect(
      await executeTextEditor(registry, { command: 'insert', path: 'src/b.txt', insert_line: 2, insert_text: '2.5\n' }),
    ).toBe('Text inserted after line 2 of src/b.txt.');
    expect(
      await executeTextEditor(registry, { command: 'insert', path: 'src/b.txt', insert_line: 0, new_str: 'zero' }),
    ).toMatch(/^Text inserted/);
    expect(
      await executeTextEditor(registry, { command: 'insert', path: 'src/b.txt', insert_line: 5, insert_text: 'end' }),
    ).toMatch(/^Text inserted/);
    expect(text('src/b.txt')).toBe('zero\none\ntwo\n2.5\nthree\nend\n');
    await executeTextEditor(registry, { command: 'view', path: 'empty.txt' });
    await executeTextEditor(registry, { command: 'insert', path: 'empty.txt', insert_line: 0, insert_text: 'first\n' });
    expect(text('empty.txt')).toBe('first\n');
    expect(
      await executeTextEditor(registry, { command: 'insert', path: 'src/b.txt', insert_line: 99, insert_text: 'x' }),
    ).toMatchObject({ success: false, error: expect.stringMatching(/^Error: Invalid `insert_line` 99/) });
  });

  it('keeps the guard: an unread file is not edited, a protected file is refused', async () => {
    const { registry } = toolkitBranch(ws.root);
    const unread = await executeTextEditor(registry, {
      command: 'str_replace',
      path: 'a.py',
      old_str: 'return 1',
      new_str: 'r',
    });
    expect(unread).toMatchObject({ success: false, error: expect.stringMatching(/^Error: /) });
    expect(text('a.py')).toContain('return 1');
    const secret = await executeTextEditor(registry, { command: 'view', path: '.env' });
    expect(secret).toMatchObject({ success: false, error: expect.stringMatching(/^Error: Permission denied\./) });
    expect(JSON.stringify(secret)).not.toContain('SECRET');
  });
});
