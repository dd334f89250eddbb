import { createHash } from 'node:crypto';
import { countFileIo, makeWorkspace, stopCountingFileIo, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleReader, type ReaderTextResult } from './index.js';

// The binary sniff already reads the start of the file; these tests count the reads that follow it.
describe('reader read: the sniffed head is not read again', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => {
    stopCountingFileIo();
    ws.cleanup();
  });
  const read = async (path: string, limits = {}) =>
    (await handleReader({ action: 'read', path }, { workspaceRoot: ws.root, limits })) as ReaderTextResult;

  it('a file that fits in the sniff is opened once and read with one read, with the same rows, totals and hash', async () => {
    const body = Array.from({ length: 60 }, (_, i) => `line ${i + 1} of a small file`).join('\n');
    ws.write('small.txt', body);
    const io = await countFileIo(ws.path('small.txt'));
    const out = await read('small.txt');
    expect(io()).toEqual({ opens: 1, reads: 1 });
    expect(out.success).toBe(true);
    expect(out.total_lines).toBe(60);
    expect(out.content.split('\n')[59]).toBe('60\tline 60 of a small file');
    expect(out.sha256).toBe(createHash('sha256').update(body).digest('hex'));
  });

  it('a file longer than the sniff continues after it: every byte hashed once, in order', async () => {
    const body = `${'x'.repeat(99)}\n`.repeat(300); // 30,000 bytes, over the 8,192-byte sniff
    ws.write('long.txt', body);
    const io = await countFileIo(ws.path('long.txt'));
    const out = await read('long.txt', { chunkBytes: 4096, binarySniffBytes: 8192 });
    // Small enough to be loaded whole: one open and one read, however small the chunks it is scanned in.
    expect(io()).toEqual({ opens: 1, reads: 1 });
    expect(out.total_lines).toBe(300);
    expect(out.sha256).toBe(createHash('sha256').update(body).digest('hex'));
  });

  it('a file too big to load is opened once and each byte read once: the sniff, then the rest in chunks', async () => {
    const body = `${'y'.repeat(99)}\n`.repeat(1000); // 100,000 bytes: read through its descriptor
    ws.write('big.txt', body);
    const io = await countFileIo(ws.path('big.txt'));
    const out = await read('big.txt', { chunkBytes: 65_536, binarySniffBytes: 8192 });
    expect(out.total_lines).toBe(1000);
    expect(out.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    // The 8,192-byte sniff, then the rest from where it ends: 65,536 bytes and the last 26,272.
    expect(io()).toEqual({ opens: 1, reads: 3 });
  });

  it('a byte order mark in the head is still skipped', async () => {
    ws.write('bom.txt', '\uFEFFfirst\nsecond\n');
    const out = await read('bom.txt');
    expect(out.content.split('\n')[0]).toBe('1\tfirst');
    expect(out.total_lines).toBe(2);
  });
});

describe('reader read: the big scratch buffer kept between reads', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.cleanup());
  const read = async (path: string, extra: Record<string, unknown> = {}) =>
    (await handleReader({ action: 'read', path, ...extra }, { workspaceRoot: ws.root })) as ReaderTextResult;
  const numbered = (tag: string, lines: number) =>
    Array.from({ length: lines }, (_, i) => `${tag} ${String(i + 1).padStart(6, '0')} ${'.'.repeat(40)}`).join('\n');

  it('leaves nothing of one file in the next read, in turn or at the same time', async () => {
    const big = `${numbered('big', 4000)}\n`; // ~200 kB: read through a reusable buffer
    const mid = numbered('mid', 1500); // ~75 kB, no final newline
    ws.write('big.txt', big);
    ws.write('mid.txt', mid);
    const hash = (text: string) => createHash('sha256').update(text).digest('hex');
    const check = (out: ReaderTextResult, tag: string, lines: number, body: string) => {
      expect(out.success).toBe(true);
      expect(out.total_lines).toBe(lines);
      expect(out.sha256).toBe(hash(body));
      const rows = out.content.split('\n').filter((row) => /^\d+\t/.test(row));
      expect(rows[0]).toBe(`1\t${tag} 000001 ${'.'.repeat(40)}`);
      for (const row of rows) expect(row).toMatch(new RegExp(`^(\\d+)\\t${tag} 0*\\1 `));
    };
    check(await read('big.txt'), 'big', 4000, big);
    check(await read('mid.txt'), 'mid', 1500, mid);
    check(await read('big.txt'), 'big', 4000, big);
    const [a, b, c] = await Promise.all([read('mid.txt'), read('big.txt'), read('mid.txt')]);
    check(a, 'mid', 1500, mid);
    check(b, 'big', 4000, big);
    check(c, 'mid', 1500, mid);
    const tail = await read('mid.txt', { offset: 1490, limit: 5 });
    expect(tail.content.split('\n')[0]).toBe(`1491\tmid 001491 ${'.'.repeat(40)}`);
  });
});
