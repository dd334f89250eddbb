import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { AskHandler } from '@bough/coding';
import { type EditorRequest, editorTouches } from '@bough/editor';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { terminalApprover } from './agent/approval.js';
import { changePreview } from './agent/preview.js';
import { agentProtectedNames } from './agent/session.js';

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe("the approval preview is the editor's own dry run", () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'todo.txt': 'buy milk\nbuy eggs\n' });
  });
  afterEach(() => ws.cleanup());

  it('shows the diff of an edit, a multi_edit, a write and a patch, and writes nothing', async () => {
    const edit = { action: 'edit', file_path: 'todo.txt', old_string: 'milk', new_string: 'bread' };
    expect(plain(await changePreview(edit, ws.root))).toMatch(/-buy milk\n\s+\+buy bread/);
    const multi = {
      action: 'multi_edit',
      file_path: 'todo.txt',
      edits: [
        { old_string: 'milk', new_string: 'tea' },
        { old_string: 'eggs', new_string: 'rice' },
      ],
    };
    expect(plain(await changePreview(multi, ws.root))).toMatch(/\+buy tea[\s\S]*\+buy rice/);
    const write = { action: 'write', file_path: 'new/notes.md', content: 'hello\n' };
    expect(plain(await changePreview(write, ws.root))).toMatch(/\+hello/);
    const patch = { action: 'patch', patch: '*** Begin Patch\n*** Add File: added.txt\n+fresh\n*** End Patch\n' };
    expect(plain(await changePreview(patch, ws.root))).toMatch(/\+fresh/);
    expect(readFileSync(join(ws.root, 'todo.txt'), 'utf8')).toBe('buy milk\nbuy eggs\n');
    expect(existsSync(join(ws.root, 'new'))).toBe(false);
    expect(existsSync(join(ws.root, 'added.txt'))).toBe(false);
  });

  it('names a rename, says why a change would fail, and refuses the session folder', async () => {
    const move = { action: 'move', file_path: 'todo.txt', destination: 'done.txt' };
    expect(await changePreview(move, ws.root)).toBe('  rename todo.txt → done.txt\n');
    expect(existsSync(join(ws.root, 'todo.txt'))).toBe(true);
    const miss = { action: 'edit', file_path: 'todo.txt', old_string: 'cheese', new_string: 'x' };
    expect(await changePreview(miss, ws.root)).toMatch(/^ {2}\(the change would fail: /);
    const policy = agentProtectedNames(ws.root, join(ws.root, '.bough/sessions/s.json'));
    const forge = { action: 'write', file_path: '.bough/sessions/s.json', content: '{}' };
    expect(await changePreview(forge, ws.root, policy)).toMatch(/would fail: .*protected/);
    expect(await changePreview({ action: 'read', path: 'todo.txt' }, ws.root)).toBe('');
  });
});

describe("the approval prompt names what a call changes from its tool's declaration", () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace({ 'todo.txt': 'buy milk\n' });
  });
  afterEach(() => ws.cleanup());

  const prompt = async (ask: Parameters<AskHandler>[0]) => {
    let shown = '';
    const input = Readable.from(['n\n', '\n']);
    const io = {
      stdout: () => {},
      stderr: (t: string) => {
        shown += t;
      },
      isTTY: true,
      input,
      inputIsTTY: true,
    };
    const approve = terminalApprover(
      { ...io, cwd: ws.root, env: {} },
      { root: ws.root, signal: new AbortController().signal, yes: false },
    );
    await approve(ask);
    return plain(shown);
  };

  it('lists every file of a patch, both names of a move and a restore of the workspace', async () => {
    const patch = {
      action: 'patch',
      patch: '*** Begin Patch\n*** Add File: secrets/key.txt\n+k\n*** Delete File: todo.txt\n*** End Patch\n',
    };
    const base = { subject: 'x', rule: undefined, policy: undefined, opaque: false };
    const shown = await prompt({
      ...base,
      tool: 'editor',
      args: patch,
      touches: editorTouches(patch as EditorRequest),
    });
    expect(shown).toMatch(/creates secrets\/key\.txt/);
    expect(shown).toMatch(/deletes todo\.txt/);
    const move = { action: 'move', file_path: 'todo.txt', destination: 'done.txt' };
    expect(
      await prompt({ ...base, tool: 'editor', args: move, touches: editorTouches(move as EditorRequest) }),
    ).toMatch(/moves todo\.txt → done\.txt/);
    const restore = { action: 'restore', to: 'abcdef12' };
    expect(await prompt({ ...base, tool: 'checkpoints', args: restore, touches: { workspace: true } })).toMatch(
      /may reach any file in the workspace/,
    );
  });
});
