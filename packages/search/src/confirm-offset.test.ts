import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { Workspace } from '@bough/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, searchIn } from '../test/helpers.js';
import { confirmMatches, type PendingMatch } from './internal/verify-results.js';

// Files of 1 MiB and more are confirmed at ripgrep's byte offset of each matching line instead of by counting lines
// from the start. These cases check that path end to end with real ripgrep output, and (through confirmMatches) what
// happens when the file is no longer what ripgrep read.
const CANARY = 'OUTSIDE-OFFSET-CANARY';
const FILLER_LINE = `${'f'.repeat(99)}\n`;
const FILLER = FILLER_LINE.repeat(12_000); // 1.2 MB of 100-byte lines
const FILLER_LINES = 12_000;

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({});
});
afterEach(() => ws.cleanup());

const gate = () => Workspace.open(ws.root);
const byteOffset = (text: string, index: number) => Buffer.byteLength(text.slice(0, index), 'utf8');

describe('grep confirmation of matches in large files (at the byte offset)', () => {
  it('keeps a match near the end, CRLF, multibyte, cut and non-UTF-8 lines with their line numbers', async () => {
    const long = `${'z'.repeat(3000)} needle in a long line`;
    const body = Buffer.concat([
      Buffer.from(`needle at the start\n${FILLER}needle crlf\r\nhé → needle ünï 😀\n${long}\n`),
      Buffer.from([0x61, 0xff, 0x62, 0x20]), // not valid UTF-8: checked line by line instead
      Buffer.from(`needle raw\n${FILLER}needle near the end\nlast line`),
    ]);
    writeFileSync(join(ws.root, 'big.log'), body);
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle' }));
    const base = FILLER_LINES + 1;
    expect(out.content.split('\n')).toEqual([
      'big.log:1:needle at the start',
      `big.log:${base + 1}:needle crlf`,
      `big.log:${base + 2}:hé → needle ünï 😀`,
      `big.log:${base + 3}:${'z'.repeat(400)} … [line cut at 400 chars]`,
      `big.log:${base + 4}:a\uFFFDb needle raw`,
      `big.log:${base + 5 + FILLER_LINES}:needle near the end`,
    ]);
    expect(out).toMatchObject({ count: 6, shown: 6 });
    expect(out.note ?? '').not.toMatch(/changed/);
  });

  it('a last line ending in a bare carriage return is kept', async () => {
    writeFileSync(join(ws.root, 'cr.log'), `${FILLER}needle at the end\r`);
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle' }));
    expect(out.content).toBe(`cr.log:${FILLER_LINES + 1}:needle at the end`);
  });

  it('files ripgrep transcodes (UTF-8 and UTF-16 byte-order marks) are still confirmed line by line', async () => {
    writeFileSync(join(ws.root, 'bom8.txt'), `\uFEFFneedle one\n${FILLER}needle two\n`);
    const utf16 = `needle one\n${FILLER}needle two\n`;
    writeFileSync(
      join(ws.root, 'bom16.txt'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf16, 'utf16le')]),
    );
    const out = ok(await searchIn(ws, { action: 'grep', pattern: 'needle' }));
    expect(out.content.split('\n')).toEqual([
      'bom16.txt:1:needle one',
      `bom16.txt:${FILLER_LINES + 2}:needle two`,
      'bom8.txt:1:needle one',
      `bom8.txt:${FILLER_LINES + 2}:needle two`,
    ]);
  });

  it('a match is dropped when the file was swapped for a link out after ripgrep read it', async () => {
    // What ripgrep would have printed had it read big.txt while big.txt was a link to the outside file.
    const outside = `${FILLER}${CANARY} needle\n`;
    writeFileSync(join(ws.outside, 'big.txt'), outside);
    const match: PendingMatch = {
      path: 'big.txt',
      line: FILLER_LINES + 1,
      offset: byteOffset(outside, outside.indexOf(CANARY)),
      text: `${CANARY} needle`,
    };
    symlinkSync(join(ws.outside, 'big.txt'), ws.path('big.txt'));
    symlinkSync(ws.outside, ws.path('dir'));
    const viaDir = { ...match, path: 'dir/big.txt' };
    const workspace = await gate();
    expect(await confirmMatches(workspace, [match, viaDir], 20 * 1024 * 1024)).toEqual({
      kept: [],
      dropped: 2,
      unchecked: 0,
    });
    // Swapped back for an inside file of the same shape: its own bytes are there, not the outside ones.
    rmSync(ws.path('big.txt'));
    writeFileSync(ws.path('big.txt'), `${FILLER}inside needle here\n`);
    expect(await confirmMatches(workspace, [match], 20 * 1024 * 1024)).toMatchObject({ kept: [], dropped: 1 });
  });

  it('a match is dropped when the file changed so neither the offset nor the line holds the text', async () => {
    const content = `${FILLER}needle one\n${FILLER}needle two\n`;
    writeFileSync(ws.path('big.txt'), content);
    const matches: PendingMatch[] = [
      { path: 'big.txt', line: FILLER_LINES + 1, offset: content.indexOf('needle one'), text: 'needle one' },
      {
        path: 'big.txt',
        line: 2 * FILLER_LINES + 2,
        offset: content.indexOf('needle two'),
        text: 'needle two',
      },
    ];
    const workspace = await gate();
    expect(await confirmMatches(workspace, matches, 20 * 1024 * 1024)).toEqual({
      kept: matches,
      dropped: 0,
      unchecked: 0,
    });
    // Lines inserted before the first match and the second one rewritten: the first text moved (its offset and its
    // line now hold filler), the second is gone.
    writeFileSync(ws.path('big.txt'), `extra\n${FILLER}needle one\n${FILLER}needle 2wo\n`);
    expect(await confirmMatches(workspace, matches, 20 * 1024 * 1024)).toEqual({
      kept: [],
      dropped: 2,
      unchecked: 0,
    });
  });

  it('text that is at the offset only as part of a longer line, or not at a line start, is not taken from there', async () => {
    const content = `${FILLER}needle one and more\nxxneedle two\n`;
    writeFileSync(ws.path('big.txt'), content);
    const lineOne = FILLER_LINES + 1;
    const workspace = await gate();
    const longer: PendingMatch = {
      path: 'big.txt',
      line: 5,
      offset: content.indexOf('needle one'),
      text: 'needle one',
    };
    const midLine: PendingMatch = {
      path: 'big.txt',
      line: 5,
      offset: content.indexOf('needle two'),
      text: 'needle two',
    };
    // The offset check refuses both; the line check then finds filler on line 5 and drops them.
    expect(await confirmMatches(workspace, [longer, midLine], 20 * 1024 * 1024)).toMatchObject({
      kept: [],
      dropped: 2,
    });
    // With ripgrep's real line number the line check keeps the first (it keeps a shown prefix, as for small files).
    const real = { ...longer, line: lineOne };
    expect(await confirmMatches(workspace, [real], 20 * 1024 * 1024)).toMatchObject({ kept: [real], dropped: 0 });
  });

  it('a wrong offset falls back to the line check, which keeps a line that really holds the text', async () => {
    const content = `${FILLER}needle one\n`;
    writeFileSync(ws.path('big.txt'), content);
    const moved: PendingMatch = { path: 'big.txt', line: FILLER_LINES + 1, offset: 12, text: 'needle one' };
    const workspace = await gate();
    expect(await confirmMatches(workspace, [moved], 20 * 1024 * 1024)).toEqual({
      kept: [moved],
      dropped: 0,
      unchecked: 0,
    });
  });

  it('only large files are confirmed at the offset alone; small ones still prove the line number', async () => {
    // The offset proves the shown text is in the file; the line number is ripgrep's, which is off only when the file
    // changed after ripgrep read it (no text from elsewhere can be shown that way).
    const large = `${FILLER}needle one\n`;
    writeFileSync(ws.path('big.txt'), large);
    writeFileSync(ws.path('small.txt'), 'a\nneedle one\n');
    const workspace = await gate();
    const inLarge: PendingMatch = { path: 'big.txt', line: 7, offset: large.indexOf('needle'), text: 'needle one' };
    const inSmall: PendingMatch = { path: 'small.txt', line: 7, offset: 2, text: 'needle one' };
    expect(await confirmMatches(workspace, [inLarge, inSmall], 20 * 1024 * 1024)).toEqual({
      kept: [inLarge],
      dropped: 1,
      unchecked: 0,
    });
  });

  it('a cut line is confirmed by its shown start, and a wrong start is dropped', async () => {
    const long = `${'q'.repeat(2000)}needle`;
    const content = `${FILLER}${long}\n`;
    writeFileSync(ws.path('big.txt'), content);
    const offset = content.indexOf(long);
    const line = FILLER_LINES + 1;
    const workspace = await gate();
    const cut: PendingMatch = {
      path: 'big.txt',
      line,
      offset,
      text: `${'q'.repeat(1600)} [... omitted end of long line]`,
    };
    const wrong: PendingMatch = { ...cut, text: `${'q'.repeat(1599)}X [... omitted end of long line]` };
    expect(await confirmMatches(workspace, [cut, wrong], 20 * 1024 * 1024)).toEqual({
      kept: [cut],
      dropped: 1,
      unchecked: 0,
    });
  });
});
