import { createHash } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handleReader, type ReaderTextResult } from './index.js';

// The binary sniff already reads the start of the file; these tests count the reads that follow it.
describe('reader read: the sniffed head is not read again', () => {
  let ws: TempWorkspace;
  let proto: FileHandle;
  beforeEach(async () => {
    ws = makeWorkspace();
    const probe = await open(import.meta.filename, 'r');
    proto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    ws.cleanup();
  });
  const read = async (path: string, limits = {}) =>
    (await handleReader({ action: 'read', path }, { workspaceRoot: ws.root, limits })) as ReaderTextResult;

  it('a file that fits in the sniff is read with one read, and gives the same rows, totals and hash', async () => {
    const body = Array.from({ length: 60 }, (_, i) => `line ${i + 1} of a small file`).join('\n');
    ws.write('small.txt', body);
    const reads = vi.spyOn(proto, 'read');
    const out = await read('small.txt');
    expect(reads).toHaveBeenCalledTimes(1);
    expect(out.success).toBe(true);
    expect(out.total_lines).toBe(60);
    expect(out.content.split('\n')[59]).toBe('60\tline 60 of a small file');
    expect(out.sha256).toBe(createHash('sha256').update(body).digest('hex'));
  });

  it('a file longer than the sniff continues after it: every byte hashed once, in order', async () => {
    const body = `${'x'.repeat(99)}\n`.repeat(300); // 30,000 bytes, over the 8,192-byte sniff
    ws.write('long.txt', body);
    const out = await read('long.txt', { chunkBytes: 4096, binarySniffBytes: 8192 });
    expect(out.total_lines).toBe(300);
    expect(out.sha256).toBe(createHash('sha256').update(body).digest('hex'));
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
