import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { countFileIo, makeWorkspace, stopCountingFileIo, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EditorFileExchange, KnownFile } from './file-exchange.js';
import { handleEditor } from './handle-editor.js';

describe('EditorFileExchange: a caller shares the file it read and learns what was written', () => {
  let tmp: TempWorkspace;
  let ws: Workspace;
  beforeEach(async () => {
    tmp = makeWorkspace();
    ws = await Workspace.open(tmp.root);
  });
  afterEach(() => {
    stopCountingFileIo();
    tmp.cleanup();
  });

  /** What a caller (the toolkit's guard) would offer after reading `path` through the gate. */
  async function readAsCaller(path: string): Promise<KnownFile> {
    const opened = await ws.openRead(path);
    if (!opened.success) throw new Error(opened.error);
    const { handle, ...file } = opened;
    const bytes = await handle.readFile();
    await handle.close();
    return { file, bytes };
  }

  function exchangeWith(known: Record<string, KnownFile>) {
    const wrote: { callId: string; path: string; text: string }[] = [];
    const asked: string[] = [];
    const exchange: EditorFileExchange = {
      known: (callId, filePath) => {
        asked.push(`${callId}:${filePath}`);
        return known[filePath];
      },
      wrote: (callId, path, bytes) => wrote.push({ callId, path, text: bytes.toString('utf8') }),
    };
    return { exchange, wrote, asked };
  }

  it('edits the offered bytes without opening the file to load it, and reports the bytes it wrote', async () => {
    tmp.write('a.txt', 'alpha\nbeta\n');
    const known = await readAsCaller('a.txt');
    const { exchange, wrote, asked } = exchangeWith({ 'a.txt': known });
    const io = await countFileIo(tmp.path('a.txt'));
    const edited = await handleEditor(
      { action: 'edit', file_path: 'a.txt', old_string: 'beta', new_string: 'gamma' },
      { workspaceRoot: tmp.root, workspace: ws, exchange, callId: 'c1' },
    );
    expect(edited.success).toBe(true);
    expect(readFileSync(tmp.path('a.txt'), 'utf8')).toBe('alpha\ngamma\n');
    expect(asked).toEqual(['c1:a.txt']);
    // One open only: the check just before writing (no separate load).
    expect(io().opens).toBe(1);
    expect(wrote).toEqual([{ callId: 'c1', path: tmp.path('a.txt'), text: 'alpha\ngamma\n' }]);
  });

  it('still refuses when the file changed after the caller read it, same size and same mtime', async () => {
    tmp.write('a.txt', 'alpha\nbeta\n');
    const known = await readAsCaller('a.txt');
    const before = statSync(tmp.path('a.txt'));
    writeFileSync(tmp.path('a.txt'), 'alpha\nBETA\n');
    utimesSync(tmp.path('a.txt'), before.atime, before.mtime);
    const { exchange, wrote } = exchangeWith({ 'a.txt': known });
    const edited = await handleEditor(
      { action: 'edit', file_path: 'a.txt', old_string: 'beta', new_string: 'gamma' },
      { workspaceRoot: tmp.root, workspace: ws, exchange, callId: 'c2' },
    );
    expect(edited).toMatchObject({ success: false, error_code: 'file_changed' });
    expect(readFileSync(tmp.path('a.txt'), 'utf8')).toBe('alpha\nBETA\n');
    expect(wrote).toEqual([]);
  });

  it('ignores an offer that is not the whole file, and multi_edit and write use the exchange too', async () => {
    tmp.write('a.txt', 'one\ntwo\n');
    const known = await readAsCaller('a.txt');
    const partial = { file: known.file, bytes: known.bytes.subarray(0, 3) };
    const first = exchangeWith({ 'a.txt': partial });
    const multi = await handleEditor(
      { action: 'multi_edit', file_path: 'a.txt', edits: [{ old_string: 'two', new_string: 'three' }] },
      { workspaceRoot: tmp.root, workspace: ws, exchange: first.exchange, callId: 'c3' },
    );
    expect(multi.success).toBe(true);
    expect(first.wrote.map((w) => w.text)).toEqual(['one\nthree\n']);
    tmp.write('crlf.txt', 'x\r\ny\r\n');
    const second = exchangeWith({ 'crlf.txt': await readAsCaller('crlf.txt') });
    const written = await handleEditor(
      { action: 'write', file_path: 'crlf.txt', content: 'p\nq\n' },
      { workspaceRoot: tmp.root, workspace: ws, exchange: second.exchange, callId: 'c4' },
    );
    expect(written).toMatchObject({ success: true, line_ending: 'crlf' });
    expect(second.wrote.map((w) => w.text)).toEqual(['p\r\nq\r\n']);
  });
});
