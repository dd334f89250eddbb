// The editor's multi_edit, patch, dry_run, move and mkdir through the real front doors: `bough mcp` driven by the MCP
// SDK client over stdio (the coding toolkit, read-before-edit guard included) and `bough call editor` as a process.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import {
  CLI_BIN as BIN,
  collect,
  exited,
  makeWorkspace,
  requireCliBuild as requireBuild,
  snapshotTree,
  spawnCli,
  type TempWorkspace,
} from '@bough/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

type McpResult = { isError?: boolean; structuredContent?: Record<string, unknown> };
const FILES = {
  'src/app.py': 'def greet():\n    print("Hi")\n\n\ndef main():\n    greet()\n',
  'src/util.py': 'A = 1\nB = 2\n',
  'old.txt': 'obsolete\n',
  'z/locked.txt': 'keep\n',
};

/** Contents of every file under the root (names and bytes), for "nothing changed" checks that survive a rename-restore. */
function contents(ws: TempWorkspace): string {
  return snapshotTree(ws.root)
    .split('\n')
    .map((line) => {
      const [name, , , size, , ...rest] = line.split(' ');
      return `${name} ${size} ${rest.join(' ')}`;
    })
    .join('\n');
}

/** Makes a file immutable (a real failure at the commit step, even for root); undefined when this host cannot. */
function lock(path: string): string | undefined {
  try {
    execFileSync('chattr', ['+i', path], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `chattr +i is not possible here (${(error as Error).message.split('\n')[0]})`;
  }
}
const unlock = (path: string) => {
  try {
    execFileSync('chattr', ['-i', path], { stdio: 'pipe' });
  } catch {
    // never locked
  }
};

const APPLY = [
  '*** Begin Patch',
  '*** Add File: docs/notes.md',
  '+hello',
  '*** Update File: src/app.py',
  '*** Move to: src/main.py',
  '@@ def greet():',
  '-    print("Hi")',
  '+    print("Hello")',
  '*** Delete File: old.txt',
  '*** End Patch',
].join('\n');
const UNIFIED = ['--- a/src/util.py', '+++ b/src/util.py', '@@ -1,2 +1,2 @@', ' A = 1', '-B = 2', '+B = 3', ''].join(
  '\n',
);
const BAD_THIRD = [
  '*** Begin Patch',
  '*** Add File: docs/notes.md',
  '+hello',
  '*** Update File: src/util.py',
  '@@',
  '-A = 1',
  '+A = 10',
  '*** Update File: src/app.py',
  '@@',
  '-    print("Howdy")',
  '+    print("Hello")',
  '*** End Patch',
].join('\n');
const INTO_LOCKED = [
  '*** Begin Patch',
  '*** Update File: src/util.py',
  '@@',
  '-A = 1',
  '+A = 10',
  '*** Add File: docs/notes.md',
  '+hello',
  '*** Update File: z/locked.txt',
  '@@',
  '-keep',
  '+gone',
  '*** End Patch',
].join('\n');

describe('editor actions through bough mcp (MCP SDK client over stdio, coding toolkit)', () => {
  let ws: TempWorkspace;
  let client: Client;
  const callTool = async (name: string, args: Record<string, unknown>) => {
    // The full response travels in structuredContent; the text part is what a model reads.
    const result = (await client.callTool({ name, arguments: args })) as McpResult;
    return { isError: result.isError === true, body: result.structuredContent ?? {} };
  };
  const read = (path: string) => callTool('reader', { action: 'read', path });
  beforeEach(async () => {
    requireBuild();
    ws = makeWorkspace(FILES);
    client = new Client({ name: 'bough-editor-test', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--workspace', ws.root],
        stderr: 'ignore',
      }),
    );
  });
  afterEach(async () => {
    await client.close();
    unlock(ws.path('z/locked.txt'));
    ws.cleanup();
  });

  it('multi_edit applies all edits or none, and names the edit that failed', { timeout: 120_000 }, async () => {
    await read('src/app.py');
    const failed = await callTool('editor', {
      action: 'multi_edit',
      file_path: 'src/app.py',
      edits: [
        { old_string: '"Hi"', new_string: '"Hello"' },
        { old_string: 'no such text', new_string: 'x' },
      ],
    });
    expect(failed).toMatchObject({ isError: true, body: { success: false, edit_index: 1 } });
    expect(readFileSync(ws.path('src/app.py'), 'utf8')).toBe(FILES['src/app.py']);
    const done = await callTool('editor', {
      action: 'multi_edit',
      file_path: 'src/app.py',
      edits: [
        { old_string: '"Hi"', new_string: '"Hello"' },
        { old_string: 'def main():', new_string: 'def run():' },
      ],
    });
    expect(done).toMatchObject({ isError: false, body: { success: true, edits: [{ strategy: 'exact' }, {}] } });
    expect(readFileSync(ws.path('src/app.py'), 'utf8')).toContain('print("Hello")\n\n\ndef run():');
  });

  it('dry_run returns the diff of an edit and of a patch and writes nothing', { timeout: 120_000 }, async () => {
    await read('src/app.py');
    await read('old.txt');
    const before = contents(ws);
    const edit = await callTool('editor', {
      action: 'edit',
      file_path: 'src/app.py',
      old_string: 'greet()\n',
      new_string: 'greet("you")\n',
      dry_run: true,
    });
    expect(edit).toMatchObject({ isError: false, body: { success: true, dry_run: true } });
    expect(String(edit.body.diff)).toContain('+    greet("you")');
    const patch = await callTool('editor', { action: 'patch', patch: APPLY, dry_run: true });
    expect(patch).toMatchObject({ isError: false, body: { success: true, dry_run: true } });
    expect(String(patch.body.diff)).toContain('+    print("Hello")');
    expect(contents(ws)).toBe(before);
  });

  it('mkdir and move, then an apply_patch and a unified diff across files', { timeout: 120_000 }, async () => {
    expect(await callTool('editor', { action: 'mkdir', file_path: 'lib/deep' })).toMatchObject({
      body: { success: true, created: true },
    });
    expect(
      await callTool('editor', { action: 'move', file_path: 'src/util.py', destination: 'lib/util.py' }),
    ).toMatchObject({ body: { success: true, relative: 'lib/util.py' } });
    expect(existsSync(ws.path('src/util.py'))).toBe(false);
    // The guard wants to have seen every file the patch changes.
    const unread = await callTool('editor', { action: 'patch', patch: APPLY });
    expect(unread.isError).toBe(true);
    await read('src/app.py');
    await read('old.txt');
    const applied = await callTool('editor', { action: 'patch', patch: APPLY });
    expect(applied).toMatchObject({ isError: false, body: { success: true } });
    const ops = (applied.body.files as { op: string; relative: string }[]).map((f) => `${f.op} ${f.relative}`);
    expect(ops).toEqual(['add docs/notes.md', 'move src/main.py', 'delete old.txt']);
    expect(readFileSync(ws.path('src/main.py'), 'utf8')).toContain('print("Hello")');
    await read('lib/util.py');
    const unified = await callTool('editor', {
      action: 'patch',
      patch: UNIFIED.replaceAll('src/util.py', 'lib/util.py'),
    });
    expect(unified).toMatchObject({ isError: false, body: { success: true, files: [{ op: 'update', added: 1 }] } });
    expect(readFileSync(ws.path('lib/util.py'), 'utf8')).toBe('A = 1\nB = 3\n');
  });

  it('refuses a patch whose third file does not match, changing nothing', { timeout: 120_000 }, async () => {
    await read('src/app.py');
    await read('src/util.py');
    const before = snapshotTree(ws.root);
    const refused = await callTool('editor', { action: 'patch', patch: BAD_THIRD });
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject({ success: false });
    expect(String(refused.body.error)).toContain('src/app.py');
    expect(snapshotTree(ws.root)).toBe(before);
  });

  it('rolls back files already changed when a later one fails at the commit step', {
    timeout: 120_000,
  }, async (context) => {
    await read('src/util.py');
    await read('z/locked.txt');
    const before = contents(ws);
    const why = lock(ws.path('z/locked.txt'));
    if (why) {
      console.warn(`SKIPPED the commit-step rollback test: ${why}`);
      context.skip();
    }
    const failed = await callTool('editor', { action: 'patch', patch: INTO_LOCKED });
    expect(failed).toMatchObject({
      isError: true,
      body: { success: false, step: 'commit', rolled_back: true, file: 'z/locked.txt' },
    });
    expect(contents(ws)).toBe(before);
    expect(existsSync(ws.path('docs'))).toBe(false);
  });
});

describe('editor actions through bough call editor (the CLI as a process)', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    requireBuild();
    ws = makeWorkspace(FILES);
  });
  afterEach(() => {
    unlock(ws.path('z/locked.txt'));
    ws.cleanup();
  });

  /** `bough call editor -` with the request on stdin; resolves with the exit code and the parsed response. */
  async function callEditor(request: Record<string, unknown>) {
    const child = spawnCli(['call', 'editor', '-', '--workspace', ws.root, '--json']);
    const out = collect(child.stdout);
    child.stdin?.end(JSON.stringify(request));
    const code = await exited(child);
    return { code, body: JSON.parse(out()) as Record<string, unknown> };
  }

  it('runs multi_edit, mkdir, move, a dry run and both patch forms', { timeout: 180_000 }, async () => {
    const multi = await callEditor({
      action: 'multi_edit',
      file_path: 'src/util.py',
      edits: [
        { old_string: 'A = 1', new_string: 'A = 5' },
        { old_string: 'B = 2', new_string: 'B = 6' },
      ],
    });
    expect(multi).toMatchObject({ code: 0, body: { success: true, replacements: 2 } });
    expect(await callEditor({ action: 'mkdir', file_path: 'lib' })).toMatchObject({ code: 0, body: { created: true } });
    expect(await callEditor({ action: 'move', file_path: 'src/util.py', destination: 'lib/util.py' })).toMatchObject({
      code: 0,
    });
    const before = contents(ws);
    const dry = await callEditor({ action: 'patch', patch: APPLY, dry_run: true });
    expect(dry).toMatchObject({ code: 0, body: { success: true, dry_run: true } });
    expect(contents(ws)).toBe(before);
    expect(await callEditor({ action: 'patch', patch: APPLY })).toMatchObject({ code: 0, body: { success: true } });
    const unified = UNIFIED.replaceAll('src/util.py', 'lib/util.py')
      .replace(' A = 1', ' A = 5')
      .replace('-B = 2', '-B = 6');
    expect(await callEditor({ action: 'patch', patch: unified })).toMatchObject({ code: 0, body: { success: true } });
    expect(readFileSync(ws.path('lib/util.py'), 'utf8')).toBe('A = 5\nB = 3\n');
    expect(existsSync(ws.path('old.txt'))).toBe(false);
  });

  it('exits 1 on a refused patch and on a commit-step failure, with the tree as it was', {
    timeout: 180_000,
  }, async (context) => {
    const before = snapshotTree(ws.root);
    const refused = await callEditor({ action: 'patch', patch: BAD_THIRD });
    expect(refused).toMatchObject({ code: 1, body: { success: false } });
    expect(snapshotTree(ws.root)).toBe(before);
    const outside = await callEditor({
      action: 'patch',
      patch: '*** Begin Patch\n*** Add File: ok.txt\n+ok\n*** Add File: ../escape.txt\n+x\n*** End Patch',
    });
    expect(outside).toMatchObject({ code: 1, body: { success: false } });
    expect(snapshotTree(ws.root)).toBe(before);
    expect(existsSync(ws.path('../escape.txt'))).toBe(false);

    const contentBefore = contents(ws);
    const why = lock(ws.path('z/locked.txt'));
    if (why) {
      console.warn(`SKIPPED the commit-step rollback case: ${why}`);
      context.skip();
    }
    const failed = await callEditor({ action: 'patch', patch: INTO_LOCKED });
    expect(failed).toMatchObject({ code: 1, body: { success: false, step: 'commit', rolled_back: true } });
    expect(contents(ws)).toBe(contentBefore);
  });
});
