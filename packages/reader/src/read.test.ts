import { createHash } from 'node:crypto';
import { describeToolConformance, makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReaderTool, handleReader, type ReaderTextResult } from './index.js';

describeToolConformance('reader', {
  makeTool: (ws) => createReaderTool({ workspaceRoot: ws.root }),
  setup: (ws) => ws.write('a.txt', 'alpha\nbeta\n'),
  validRequest: () => ({ action: 'read', path: 'a.txt' }),
  invalidRequests: [
    {},
    { action: 'write', path: 'a.txt' },
    { action: 'read', path: '' },
    { action: 'read', path: 'a.txt', offset: 1.5 },
    { action: 'read', path: 'a.txt', bogus: 1 },
    { action: 'list_dir', path: '.', file_types: 'ts' },
  ],
  escapeRequests: (ws) => [
    { action: 'read', path: '../ws-evil/secret.txt' },
    { action: 'read', path: `${ws.outside}/secret.txt` },
    { action: 'list_dir', path: '../ws-evil' },
    { action: 'list_dir', path: ws.outside },
    { action: 'open', path: '../ws-evil/secret.html' },
  ],
  touchCases: () => [
    { request: { action: 'read_many', paths: ['a.txt', 'b/c.md'] }, touches: { read: ['a.txt', 'b/c.md'] } },
    { request: { action: 'list_dir', path: '' }, touches: { read: ['.'] } },
    { request: { action: 'stat', path: 'secrets' }, touches: { read: ['secrets'] } },
    { request: { action: 'open', path: 'doc.pdf' }, touches: { read: ['doc.pdf'] } },
    { request: { action: 'open', path: 'https://example.com/a' }, touches: {} },
  ],
});

type Text = ReaderTextResult;

describe('reader read', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.cleanup());
  const read = async (path: string, extra: Record<string, unknown> = {}, limits = {}) =>
    (await handleReader({ action: 'read', path, ...extra }, { workspaceRoot: ws.root, limits })) as Text;

  it('returns 1-based numbered rows, totals, the sha of the whole file and a notice', async () => {
    const body = 'one\ntwo\r\nthree';
    ws.write('f.txt', body);
    const out = await read('f.txt');
    expect(out).toMatchObject({
      success: true,
      type: 'text',
      content: '1\tone\n2\ttwo\n3\tthree',
      start_line: 1,
      end_line: 3,
    });
    expect(out.total_lines).toBe(3);
    expect(out.next_offset).toBeUndefined();
    expect(out.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(out.relative).toBe('f.txt');
    expect(out.path).toBe(ws.path('f.txt'));
    expect(out.notice).toMatch(/all 3 lines/);
  });

  it('applies offset and limit, clamps negatives, defaults a bad limit to 2000, and points to the next offset', async () => {
    ws.write('n.txt', Array.from({ length: 2500 }, (_, i) => `L${i + 1}`).join('\n'));
    const mid = await read('n.txt', { offset: 10, limit: 5 });
    expect(mid.content.split('\n')).toEqual(['11\tL11', '12\tL12', '13\tL13', '14\tL14', '15\tL15']);
    expect(mid).toMatchObject({ start_line: 11, end_line: 15, next_offset: 15, total_lines: 2500 });
    expect(mid.notice).toMatch(/offset=15/);
    expect((await read('n.txt', { offset: -4, limit: 1 })).content).toBe('1\tL1');
    for (const limit of [0, -3, undefined]) {
      const out = await read('n.txt', limit === undefined ? {} : { limit });
      expect(out).toMatchObject({ end_line: 2000, next_offset: 2000 });
    }
    expect(await read('n.txt', { offset: 2000 })).toMatchObject({ start_line: 2001, end_line: 2500 });
  });

  it('returns an empty window with the total when the offset is past the end', async () => {
    ws.write('s.txt', 'a\nb\n');
    const out = await read('s.txt', { offset: 99 });
    expect(out).toMatchObject({ success: true, content: '', total_lines: 2, start_line: 0, end_line: 0 });
    expect(out.notice).toMatch(/past the end/);
    ws.write('e.txt', '');
    expect((await read('e.txt')).notice).toMatch(/empty/);
  });

  it('cuts long lines with a marker that counts the dropped characters', async () => {
    ws.write('long.txt', `${'é'.repeat(2500)}\nshort\n`);
    const out = await read('long.txt');
    const [first, second] = out.content.split('\n');
    expect(first).toBe(`1\t${'é'.repeat(2000)} … [line cut: 500 more characters]`);
    expect(second).toBe('2\tshort');
    expect(out.notice).toMatch(/cut/);
  });

  it('streams a single huge line across many chunks without holding it', async () => {
    ws.write('huge.txt', `${'x'.repeat(300_000)}\nend\n`);
    const out = await read('huge.txt', {}, { chunkBytes: 4096 });
    expect(out.content).toBe(`1\t${'x'.repeat(2000)} … [line cut: 298000 more characters]\n2\tend`);
    expect(out.total_lines).toBe(2);
  });

  it('caps the output bytes and continues exactly where it stopped', async () => {
    ws.write('w.txt', Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(999, '-')).join('\n'));
    const first = await read('w.txt');
    expect(first.end_line).toBeLessThan(100);
    expect(Buffer.byteLength(first.content)).toBeLessThanOrEqual(50_000);
    expect(first.next_offset).toBe(first.end_line);
    expect(first.notice).toMatch(/size limit/);
    const next = await read('w.txt', { offset: first.next_offset });
    expect(next.start_line).toBe(first.end_line + 1);
  });

  it('gives the same rows whatever the chunk size (lines split across chunk edges)', async () => {
    const text = Array.from({ length: 300 }, (_, i) => `line ${i} ✓ ${'ab'.repeat(i % 13)}`).join('\r\n');
    ws.write('c.txt', text);
    const reference = await read('c.txt', { offset: 37, limit: 120 });
    for (const chunkBytes of [1, 3, 7, 64, 1000]) {
      const out = await read('c.txt', { offset: 37, limit: 120 }, { chunkBytes });
      expect(out.content).toBe(reference.content);
      expect(out.sha256).toBe(reference.sha256);
      expect(out.total_lines).toBe(300);
    }
  });

  it('reads a window deep in a file larger than the scan limit without totals', async () => {
    ws.write('big.txt', Array.from({ length: 50_000 }, (_, i) => `row ${i + 1}`).join('\n'));
    const out = await read('big.txt', { offset: 40_000, limit: 3 }, { fullScanMaxBytes: 1000, chunkBytes: 4096 });
    expect(out.content).toBe('40001\trow 40001\n40002\trow 40002\n40003\trow 40003');
    expect(out.total_lines).toBeUndefined();
    expect(out.sha256).toBeUndefined();
    expect(out.next_offset).toBe(40_003);
    expect(out.notice).toMatch(/unknown number/);
    const tail = await read('big.txt', { offset: 49_999 }, { fullScanMaxBytes: 1000 });
    expect(tail).toMatchObject({ content: '50000\trow 50000', total_lines: 50_000 });
    expect(tail.next_offset).toBeUndefined();
  });

  it('stops after the window in a file over tailScanMaxBytes, and hashes a file under it', async () => {
    ws.write('mid.txt', Array.from({ length: 5_000 }, (_, i) => `row ${i + 1}`).join('\n'));
    const head = await read('mid.txt', { offset: 0, limit: 10 }, { tailScanMaxBytes: 1000 });
    expect(head).toMatchObject({ start_line: 1, end_line: 10, next_offset: 10 });
    expect(head.total_lines).toBeUndefined();
    expect(head.sha256).toBeUndefined();
    const scanned = await read('mid.txt', { offset: 0, limit: 10 });
    expect(scanned.total_lines).toBe(5_000);
    expect(scanned.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses binary files with a hint', async () => {
    ws.write('bin.dat', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]));
    const out = await handleReader({ action: 'read', path: 'bin.dat' }, { workspaceRoot: ws.root });
    expect(out).toMatchObject({ success: false, error_code: 'binary_file' });
    expect((out as { error: string }).error).toMatch(/bash/);
  });

  it('does not call UTF-8 text with non-Latin scripts binary', async () => {
    ws.write('zh.py', '# 中文注释\nprint("你好")\n');
    expect((await read('zh.py')).content).toBe('1\t# 中文注释\n2\tprint("你好")');
  });

  it('decodes UTF-8 BOM and UTF-16 LE/BE files', async () => {
    ws.write('bom.txt', Buffer.from('\uFEFFhi\nthere\n'));
    expect(await read('bom.txt')).toMatchObject({ content: '1\thi\n2\tthere', encoding: 'utf-8-bom' });
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\r\nb\n', 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    ws.write('le.txt', le);
    ws.write('be.txt', be);
    expect(await read('le.txt')).toMatchObject({ content: '1\ta\n2\tb', encoding: 'utf-16le', total_lines: 2 });
    expect(await read('be.txt')).toMatchObject({ content: '1\ta\n2\tb', encoding: 'utf-16be' });
  });

  it('reports invalid UTF-8 with its byte offset instead of replacing silently', async () => {
    ws.write('latin1.txt', Buffer.from([0x6f, 0x6b, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const out = await read('latin1.txt');
    expect(out).toMatchObject({ success: true, invalid_utf8_offset: 6 });
    expect(out.content).toBe('1\tok\n2\tcaf\uFFFD');
    expect(out.notice).toMatch(/not valid UTF-8.*offset 6/);
  });

  it('returns images inline as data URLs, with a size cap, and does not trust the extension alone', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(20, 1)]);
    ws.write('pic.PNG', png);
    ws.write('icon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
    ws.write('fake.png', 'just text\n');
    const out = await handleReader({ action: 'read', path: 'pic.PNG' }, { workspaceRoot: ws.root });
    expect(out).toMatchObject({ success: true, type: 'image', media_type: 'image/png', size_bytes: 28 });
    expect((out as { content: string }).content).toBe(`data:image/png;base64,${png.toString('base64')}`);
    expect(await handleReader({ action: 'read', path: 'icon.svg' }, { workspaceRoot: ws.root })).toMatchObject({
      type: 'image',
      media_type: 'image/svg+xml',
    });
    expect(await read('fake.png')).toMatchObject({ type: 'text', content: '1\tjust text' });
    const big = await handleReader(
      { action: 'read', path: 'pic.PNG' },
      { workspaceRoot: ws.root, limits: { maxImageBytes: 10 } },
    );
    expect(big).toMatchObject({ error_code: 'too_large' });
  });

  it('passes workspace refusals through unchanged', async () => {
    ws.write('dir/x.txt', 'x');
    expect(await handleReader({ action: 'read', path: 'dir' }, { workspaceRoot: ws.root })).toMatchObject({
      error_code: 'not_a_file',
    });
    expect(await handleReader({ action: 'read', path: 'nope.txt' }, { workspaceRoot: ws.root })).toMatchObject({
      error_code: 'not_found',
    });
    expect(
      await handleReader({ action: 'read', path: 'https://example.com/a' }, { workspaceRoot: ws.root }),
    ).toMatchObject({
      error_code: 'invalid_request',
    });
  });
});
