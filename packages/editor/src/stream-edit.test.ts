import { appendFileSync, chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';
import { statUnchanged } from './internal/load-text.js';
import { type StreamedEdit, type StreamStop, streamEdit } from './internal/stream-edit.js';
import { type EditorLimits, resolveEditorLimits } from './limits.js';

// Streaming only starts on big files; these limits make every file stream, in 64-byte windows (the smallest step),
// so occurrences, characters and the BOM meet window boundaries at every offset in files of a few hundred bytes.
const STREAM: Partial<EditorLimits> = { streamEditMinBytes: 0, verifyBytesMax: 0, streamChunkBytes: 1 };

let streamed: TempWorkspace;
let whole: TempWorkspace;
beforeEach(() => {
  streamed = makeWorkspace();
  whole = makeWorkspace();
});
afterEach(() => {
  streamed.cleanup();
  whole.cleanup();
});

type Request = { old_string: string; new_string: string; replace_all?: boolean };

/** What the stream alone makes of a file: the edit it wrote, or why it left the file to the whole-file path. */
async function streamOutcome(
  content: Buffer,
  req: Request,
  simd = true,
  signal?: AbortSignal,
): Promise<StreamedEdit | StreamStop> {
  const ws = makeWorkspace();
  try {
    ws.write('probe.txt', content);
    const gate = await Workspace.open(ws.root);
    const opened = await gate.openRead('probe.txt');
    if (!opened.success) throw new Error(opened.error);
    let outcome: StreamedEdit | StreamStop = 'whole_file';
    const fold = (s: string) => s.replaceAll('\r\n', '\n');
    const limits = resolveEditorLimits(STREAM);
    await gate.replaceFile('probe.txt', async (sink) => {
      outcome = await streamEdit(opened, sink, {
        oldText: fold(req.old_string),
        newText: fold(req.new_string),
        maxFileBytes: limits.maxFileBytes,
        chunkBytes: limits.streamChunkBytes,
        diffContextLines: limits.diffContextLines,
        simd,
        signal,
      });
      return false;
    });
    await opened.handle.close();
    return outcome;
  } finally {
    ws.cleanup();
  }
}

/** Runs the same edit streamed and on the whole-file path; both must answer alike and leave the same bytes. */
async function bothWays(content: Buffer, req: Request) {
  streamed.write('f.txt', content);
  whole.write('f.txt', content);
  const request = { action: 'edit' as const, file_path: 'f.txt', ...req };
  const a = await handleEditor(request, { workspaceRoot: streamed.root, limits: STREAM });
  const b = await handleEditor(request, { workspaceRoot: whole.root });
  const { path: _a, ...fromStream } = a as Record<string, unknown>;
  const { path: _b, ...fromWhole } = b as Record<string, unknown>;
  expect(fromStream).toEqual(fromWhole);
  const disk = readFileSync(streamed.path('f.txt'));
  expect(disk.equals(readFileSync(whole.path('f.txt')))).toBe(true);
  expect(readdirSync(streamed.root).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  return { response: a as Record<string, unknown>, disk };
}

const lines = (n: number, word = 'line') => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join('\n');

describe('streamed edit (fast path)', () => {
  it('edits ASCII with the occurrence at every offset of a window, same answer as the whole-file path', async () => {
    for (let pad = 0; pad < 70; pad++) {
      const content = Buffer.from(`${'x'.repeat(pad)}\n${lines(12)}\nthe TARGET here\n${lines(9, 'tail')}\n`);
      const req = { old_string: 'TARGET here', new_string: 'replaced text' };
      const fast = await streamOutcome(content, req);
      expect(fast).toMatchObject({ lineFeedsBefore: 13, hasLineFeed: true });
      expect(await streamOutcome(content, req, false)).toEqual(fast);
      const { response, disk } = await bothWays(content, req);
      expect(response).toMatchObject({ success: true, first_line: 14, replacements: 1, encoding: 'utf-8' });
      expect(disk.toString()).toContain('the replaced text\n');
    }
  });

  it('edits UTF-8 with multi-byte characters split across windows, in and around the occurrence', async () => {
    for (let pad = 0; pad < 66; pad += 1) {
      const content = Buffer.from(`${'é'.repeat(pad)}\n日本語 ${lines(5)}\n😀 mot clé 😀 fin\n${'ü'.repeat(40)}\n`);
      const req = { old_string: 'mot clé 😀', new_string: 'Wort 🚀' };
      expect(typeof (await streamOutcome(content, req))).toBe('object');
      const { response, disk } = await bothWays(content, req);
      expect(response).toMatchObject({ success: true, first_line: 7 });
      expect(disk.toString()).toContain('😀 Wort 🚀 fin');
    }
  });

  it('keeps a UTF-8 BOM and counts lines after it, with the occurrence right after the BOM or far from it', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    for (const [body, target, line] of [
      [`head\n${lines(30)}\n`, 'head', 1],
      [`${lines(30)}\nlast words`, 'last words', 31],
    ] as const) {
      const content = Buffer.concat([bom, Buffer.from(body)]);
      const req = { old_string: target, new_string: 'NEW' };
      expect(await streamOutcome(content, req)).toMatchObject({ encoding: 'utf-8-bom' });
      const { response, disk } = await bothWays(content, req);
      expect(response).toMatchObject({ success: true, encoding: 'utf-8-bom', first_line: line });
      expect(disk.subarray(0, 3).equals(bom)).toBe(true);
    }
  });

  it('grows, shrinks and deletes; handles no trailing newline and a file without any newline', async () => {
    const base = `${lines(20)}\nmiddle MARK middle\n${lines(20, 'after')}`;
    for (const replacement of ['', 'M', 'a much longer replacement\nspanning two lines']) {
      await bothWays(Buffer.from(base), { old_string: 'MARK', new_string: replacement });
    }
    const flat = Buffer.from(`${'word '.repeat(60)}MARK${' word'.repeat(60)}`);
    expect(await streamOutcome(flat, { old_string: 'MARK', new_string: 'x' })).toMatchObject({ hasLineFeed: false });
    const { response } = await bothWays(flat, { old_string: 'MARK', new_string: 'x' });
    expect(response).toMatchObject({ success: true, line_ending: 'none', first_line: 1 });
  });

  it('cuts the diff from whole lines even when the lines around the occurrence are far longer than a window', async () => {
    const long = 'z'.repeat(200_000);
    const content = Buffer.from(`${lines(5)}\n${long}\n${long} NEEDLE ${long}\n${long}\n${lines(5)}\n`);
    const req = { old_string: 'NEEDLE', new_string: 'PIN' };
    expect(await streamOutcome(content, req)).toMatchObject({ lineFeedsBefore: 6, linesBefore: 2 });
    const { response } = await bothWays(content, req);
    expect(response).toMatchObject({ success: true, first_line: 7 });
    expect(String(response.diff)).toMatch(/^@@ -4,7 \+4,7 @@\n line 4\n/);
  });

  it('takes a single occurrence with replace_all, and an old_string written with CRLF against an LF file', async () => {
    const content = Buffer.from(`${lines(10)}\nalpha\nbeta\n${lines(10)}\n`);
    expect(typeof (await streamOutcome(content, { old_string: 'alpha\r\nbeta', new_string: 'x' }))).toBe('object');
    await bothWays(content, { old_string: 'alpha\r\nbeta', new_string: 'one\r\ntwo', replace_all: true });
  });

  it('stops at the next window once the signal is aborted, writing nothing', async () => {
    const content = Buffer.from(`${lines(200)}\nSTOP HERE\n`);
    const controller = new AbortController();
    controller.abort();
    expect(await streamOutcome(content, { old_string: 'STOP HERE', new_string: 'x' }, true, controller.signal)).toBe(
      'aborted',
    );
  });

  it('refuses to commit over a file that changed size after it was opened', async () => {
    streamed.write('g.txt', `${lines(50)}\nEDIT ME\n`);
    const gate = await Workspace.open(streamed.root);
    const opened = await gate.openRead('g.txt');
    if (!opened.success) throw new Error(opened.error);
    const { handle, ...file } = opened;
    await handle.close();
    expect(await statUnchanged(gate, file)).toBe(true);
    appendFileSync(streamed.path('g.txt'), 'more\n');
    expect(await statUnchanged(gate, file)).toBe(false);
    const result = await gate.replaceFile(
      'g.txt',
      async (sink) => {
        await sink.write(Buffer.from('lost'), 0);
        return true;
      },
      { confirm: () => statUnchanged(gate, file) },
    );
    expect(result).toEqual({ success: true, abandoned: true });
    expect(readFileSync(streamed.path('g.txt'), 'utf8')).toContain('EDIT ME\nmore\n');
  });

  it('keeps the mode of the file it replaces', async () => {
    streamed.write('run.sh', `#!/bin/sh\n${lines(30)}\necho OLD\n`);
    chmodSync(streamed.path('run.sh'), 0o751);
    const out = await handleEditor(
      { action: 'edit', file_path: 'run.sh', old_string: 'echo OLD', new_string: 'echo NEW' },
      { workspaceRoot: streamed.root, limits: STREAM },
    );
    expect(out).toMatchObject({ success: true });
    expect(statSync(streamed.path('run.sh')).mode & 0o777).toBe(0o751);
  });
});

describe('streamed edit falls back to the whole-file path', () => {
  it('on several occurrences: multiple_matches with count and lines, or replace_all of every one', async () => {
    const content = Buffer.from(`${lines(10)}\nDUP\n${lines(40)}\nDUP\n${lines(3)}\nDUP\n`);
    expect(await streamOutcome(content, { old_string: 'DUP', new_string: 'x' })).toBe('whole_file');
    const { response } = await bothWays(content, { old_string: 'DUP', new_string: 'x' });
    expect(response).toMatchObject({ error_code: 'multiple_matches', match_count: 3, match_lines: [11, 52, 56] });
    whole.cleanup();
    streamed.cleanup();
    whole = makeWorkspace();
    streamed = makeWorkspace();
    const all = await bothWays(content, { old_string: 'DUP', new_string: 'x', replace_all: true });
    expect(all.response).toMatchObject({ success: true, replacements: 3 });
  });

  it('on no occurrence: the miss report with its candidates, file untouched', async () => {
    const content = Buffer.from(`${lines(50)}\nfunction computeTotal(a, b) {\n${lines(50)}\n`);
    expect(await streamOutcome(content, { old_string: 'function computeTotals(a, b) {', new_string: 'x' })).toBe(
      'whole_file',
    );
    const { response, disk } = await bothWays(content, {
      old_string: 'function computeTotals(a, b) {',
      new_string: 'x',
    });
    expect(response).toMatchObject({ error_code: 'not_found_in_file' });
    expect(disk.equals(content)).toBe(true);
  });

  it('on CRLF and mixed line endings, where old_string written with LF still matches', async () => {
    for (const eol of ['\r\n', 'mixed']) {
      const body = Array.from({ length: 30 }, (_, i) => `row ${i}`);
      const text = eol === 'mixed' ? body.map((l, i) => l + (i % 2 ? '\r\n' : '\n')).join('') : body.join('\r\n');
      const content = Buffer.from(text);
      const req = { old_string: 'row 20\nrow 21', new_string: 'changed\nlines' };
      expect(await streamOutcome(content, req)).toBe('whole_file');
      const { response } = await bothWays(content, req);
      expect(response).toMatchObject({ success: true, first_line: 21 });
      streamed.cleanup();
      whole.cleanup();
      streamed = makeWorkspace();
      whole = makeWorkspace();
    }
  });

  it('on UTF-16 (either byte order) and on invalid UTF-8 anywhere in the file', async () => {
    const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${lines(20)}\nFIND me\n`, 'utf16le')]);
    const utf16be = Buffer.from(utf16le);
    utf16be.swap16();
    const invalid = Buffer.concat([Buffer.from(`${lines(20)}\nFIND me\n${lines(20)}\n`), Buffer.from([0xc3, 0x28])]);
    for (const content of [utf16le, utf16be, invalid]) {
      const req = { old_string: 'FIND me', new_string: 'found' };
      expect(await streamOutcome(content, req)).toBe('whole_file');
      await bothWays(content, req);
      streamed.cleanup();
      whole.cleanup();
      streamed = makeWorkspace();
      whole = makeWorkspace();
    }
  });
});
