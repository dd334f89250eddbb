import { readFileSync, writeFileSync } from 'node:fs';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleEditor } from './index.js';

const utf16 = (text: string, be = false): Buffer => {
  const body = Buffer.from(text, 'utf16le');
  if (be) body.swap16();
  return Buffer.concat([Buffer.from(be ? [0xfe, 0xff] : [0xff, 0xfe]), body]);
};

describe('byte-faithful edits', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.cleanup());
  const edit = (file: string, old_string: string, new_string: string, replace_all = false) =>
    handleEditor({ action: 'edit', file_path: file, old_string, new_string, replace_all }, { workspaceRoot: ws.root });

  it('matches an LF old_string in a CRLF file and writes the replacement with CRLF', async () => {
    ws.write('w.txt', 'a\r\nb\r\nc\r\n');
    const out = await edit('w.txt', 'a\nb\n', 'A\nB1\nB2\n');
    expect(out).toMatchObject({ success: true, line_ending: 'crlf' });
    expect(readFileSync(ws.path('w.txt'))).toEqual(Buffer.from('A\r\nB1\r\nB2\r\nc\r\n'));
  });

  it('accepts a CRLF old_string against an LF file and keeps LF', async () => {
    ws.write('u.txt', 'a\nb\nc\n');
    await edit('u.txt', 'a\r\nb', 'x\r\ny');
    expect(readFileSync(ws.path('u.txt'))).toEqual(Buffer.from('x\ny\nc\n'));
  });

  it('keeps each region of a mixed file in its own line ending', async () => {
    const before = 'one\r\ntwo\r\nthree\nfour\nfive\r\n';
    ws.write('m.txt', before);
    await edit('m.txt', 'two\nthree', 'TWO\nTHREE');
    expect(readFileSync(ws.path('m.txt'))).toEqual(Buffer.from('one\r\nTWO\r\nTHREE\nfour\nfive\r\n'));
    await edit('m.txt', 'four', 'four\n4b');
    expect(readFileSync(ws.path('m.txt'))).toEqual(Buffer.from('one\r\nTWO\r\nTHREE\nfour\n4b\nfive\r\n'));
    await edit('m.txt', 'five', 'five\n5b');
    expect(readFileSync(ws.path('m.txt'))).toEqual(Buffer.from('one\r\nTWO\r\nTHREE\nfour\n4b\nfive\r\n5b\r\n'));
  });

  it('keeps a UTF-8 BOM, multibyte text and a missing final newline byte for byte', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo wörld\r\n日本語 = 1\r\nlast')]);
    ws.write('b.txt', bytes);
    const out = await edit('b.txt', '日本語 = 1', '日本語 = 2');
    expect(out).toMatchObject({ success: true, encoding: 'utf-8-bom' });
    const expected = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo wörld\r\n日本語 = 2\r\nlast')]);
    expect(readFileSync(ws.path('b.txt'))).toEqual(expected);
  });

  it('round-trips UTF-16 LE and BE with BOM', async () => {
    ws.write('le.txt', utf16('x = "é"\r\ny = 2\r\n'));
    ws.write('be.txt', utf16('x = "😀"\ny = 2\n', true));
    expect(await edit('le.txt', 'y = 2', 'y = 3')).toMatchObject({ success: true, encoding: 'utf-16le' });
    expect(await edit('be.txt', 'y = 2\n', 'y = 3\nz = 4\n')).toMatchObject({ success: true, encoding: 'utf-16be' });
    expect(readFileSync(ws.path('le.txt'))).toEqual(utf16('x = "é"\r\ny = 3\r\n'));
    expect(readFileSync(ws.path('be.txt'))).toEqual(utf16('x = "😀"\ny = 3\nz = 4\n', true));
  });

  it('refuses a Latin-1 file and leaves it untouched', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x78, 0x3d, 0x31, 0x0a]); // "café\nx=1\n" in Latin-1
    ws.write('l.txt', latin1);
    const out = await edit('l.txt', 'x=1', 'x=2');
    expect(out).toMatchObject({ success: false, error_code: 'unsupported_encoding', bad_byte_offset: 3 });
    expect(readFileSync(ws.path('l.txt'))).toEqual(latin1);
  });

  it('refuses a UTF-16 file with an odd byte count and one with an unpaired surrogate', async () => {
    ws.write('odd.txt', Buffer.concat([utf16('ab'), Buffer.from([0x41])]));
    ws.write('lone.txt', Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00]));
    expect(await edit('odd.txt', 'a', 'b')).toMatchObject({ error_code: 'unsupported_encoding' });
    expect(await edit('lone.txt', 'A', 'B')).toMatchObject({ error_code: 'unsupported_encoding' });
  });

  it('keeps bytes outside the span identical in a large file with many replacements', async () => {
    const line = (i: number) => `row ${i} ✓ ${i % 7 === 0 ? 'TARGET' : 'plain'}${i % 3 === 0 ? '\r\n' : '\n'}`;
    const text = Array.from({ length: 3000 }, (_, i) => line(i)).join('');
    ws.write('big.txt', text);
    const out = await edit('big.txt', 'TARGET', 'HIT', true);
    expect(out).toMatchObject({ success: true, replacements: 429 });
    expect(readFileSync(ws.path('big.txt'))).toEqual(Buffer.from(text.replaceAll('TARGET', 'HIT')));
  });

  it('write keeps the BOM, UTF-16 encoding and CRLF style of the file it replaces', async () => {
    ws.write('bom.txt', Buffer.from('\uFEFFold\r\nfile\r\n'));
    ws.write('w16.txt', utf16('old\n'));
    const write = (file_path: string, content: string) =>
      handleEditor({ action: 'write', file_path, content }, { workspaceRoot: ws.root });
    expect(await write('bom.txt', 'new\ntext\n')).toMatchObject({
      success: true,
      encoding: 'utf-8-bom',
      line_ending: 'crlf',
    });
    expect(readFileSync(ws.path('bom.txt'))).toEqual(Buffer.from('\uFEFFnew\r\ntext\r\n'));
    await write('w16.txt', 'new\n');
    expect(readFileSync(ws.path('w16.txt'))).toEqual(utf16('new\n'));
    writeFileSync(ws.path('plain.txt'), 'a\nb\n');
    await write('plain.txt', 'c\r\nd\n');
    expect(readFileSync(ws.path('plain.txt'))).toEqual(Buffer.from('c\r\nd\n'));
  });
});
