import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { countingBuffer } from '@bough/workspace/internal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, searchIn } from '../test/helpers.js';
import { linesOf } from './internal/read-lines.js';

// Confirming a match reads the file in pieces and stops after the last wanted line; these cases cross those pieces.
let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({});
});
afterEach(() => ws.cleanup());

describe('grep confirmation of matches', () => {
  it('keeps matches on lines that span read boundaries, late lines, CRLF lines and a last line without newline', async () => {
    const filler = `${'x'.repeat(1000)}\n`.repeat(600); // 600 kB of other lines before and between the matches
    const long = `${'y'.repeat(300_000)} needle long`;
    writeFileSync(
      join(ws.root, 'big.txt'),
      `needle first\r\n${filler}${long}\n${filler}\uFEFFneedle after a mid-file BOM\n${filler}é needle last`,
    );
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle' }));
    expect(out.count).toBe(4);
    expect(out.shown).toBe(4);
    const lines = out.content.split('\n');
    expect(lines[0]).toBe('big.txt:1:needle first');
    expect(lines[1]).toMatch(/^big\.txt:602:y+/);
    expect(lines[2]).toBe('big.txt:1203:\uFEFFneedle after a mid-file BOM');
    expect(lines[3]).toBe('big.txt:1804:é needle last');
  });

  it('small files (read synchronously) and files just over the small-read size confirm the same way', async () => {
    // Lines of 100 bytes; the first file stays under 64 KiB, the second ends just past it.
    const line = `${'s'.repeat(99)}\n`;
    writeFileSync(join(ws.root, 'a-small.txt'), `needle top\n${line.repeat(640)}needle bottom`);
    writeFileSync(join(ws.root, 'b-edge.txt'), `needle top\n${line.repeat(660)}needle bottom\r\n`);
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle' }));
    expect(out.content.split('\n')).toEqual([
      'a-small.txt:1:needle top',
      'a-small.txt:642:needle bottom',
      'b-edge.txt:1:needle top',
      'b-edge.txt:662:needle bottom',
    ]);
    expect(out).toMatchObject({ count: 4, shown: 4 });
  });
});

describe('the first read of a file', () => {
  it('is only a hint: lines past a too-short or too-long first read are found all the same', async () => {
    const line = `${'z'.repeat(99)}\n`;
    writeFileSync(join(ws.root, 'f.txt'), `${line.repeat(300)}wanted A\n${line.repeat(300)}wanted B\n`);
    for (const hint of [1, 4096, 30_000, 1 << 20]) {
      const fd = openSync(join(ws.root, 'f.txt'), 'r');
      try {
        const file = {
          fd,
          read: () => Promise.reject(new Error('unused')),
          readFile: () => Promise.reject(new Error('unused')),
        };
        const lines = await linesOf(file, new Set([301, 602]), () => countingBuffer(64 * 1024, { simd: false }), hint);
        expect([...(lines ?? new Map()).entries()]).toEqual([
          [301, 'wanted A'],
          [602, 'wanted B'],
        ]);
      } finally {
        closeSync(fd);
      }
    }
  });
});
