import { describe, expect, it } from 'vitest';
import { loadedWindow } from './internal/loaded-window.js';
import { streamWindow } from './internal/stream-window.js';

// A small deterministic generator, so a failure names a seed that reproduces it.
function lcg(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const PIECES = ['a', 'word ', '\t', 'é', '€', '😀', '\r', ' ', 'x'.repeat(30), '\uFEFF'];

function sample(rand: () => number): Buffer {
  const lines: string[] = [];
  const count = Math.floor(rand() * 40);
  for (let i = 0; i < count; i++) {
    let line = '';
    const parts = rand() < 0.05 ? 200 : Math.floor(rand() * 8);
    for (let j = 0; j < parts; j++) {
      const piece = PIECES[Math.floor(rand() * (rand() < 0.02 ? PIECES.length : PIECES.length - 1))] as string;
      line += piece;
    }
    lines.push(line);
  }
  let text = lines.join(rand() < 0.3 ? '\r\n' : '\n');
  if (rand() < 0.5) text += '\n';
  const bom = rand() < 0.15 ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0);
  const body = Buffer.from(text);
  // Now and then a byte that is not UTF-8.
  if (body.length > 0 && rand() < 0.1) body[Math.floor(rand() * body.length)] = 0xff;
  return Buffer.concat([bom, body]);
}

describe('loadedWindow', () => {
  it('gives exactly what the streamed full scan gives, or leaves the file to it', async () => {
    const rand = lcg(16);
    let answered = 0;
    for (let round = 0; round < 1500; round++) {
      const bytes = sample(rand);
      const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
      const offset = rand() < 0.5 ? 0 : Math.floor(rand() * 45);
      const limit = 1 + Math.floor(rand() * 40);
      const maxLineChars = 20 + Math.floor(rand() * 200);
      const maxOutputBytes = rand() < 0.3 ? 60 + Math.floor(rand() * 400) : 50_000;
      const whole = loadedWindow(bytes, start, offset, limit, maxLineChars, maxOutputBytes);
      const streamed = await streamWindow(undefined, {
        start,
        size: bytes.length,
        offset,
        limit,
        maxLineChars,
        maxOutputBytes,
        chunkBytes: 1 << 20,
        fullScan: true,
        head: bytes,
      });
      if (whole === undefined) {
        continue;
      }
      answered++;
      const { aborted: _aborted, ...expected } = streamed;
      expect({ round, ...whole }).toEqual({ round, ...expected });
    }
    // Most generated files take the in-memory path; the rest were checked to be left to the streamed one.
    expect(answered).toBeGreaterThan(500);
  });

  it('leaves invalid UTF-8, a U+FEFF and over-long shown lines to the streamed path', () => {
    expect(loadedWindow(Buffer.from([0x61, 0xff, 0x0a]), 0, 0, 10, 100, 10_000)).toBeUndefined();
    expect(loadedWindow(Buffer.from('a\n\uFEFFb\n'), 0, 0, 10, 100, 10_000)).toBeUndefined();
    expect(loadedWindow(Buffer.from(`${'y'.repeat(101)}\n`), 0, 0, 10, 100, 10_000)).toBeUndefined();
    // An over-long line outside the window does not matter: it is only counted.
    expect(loadedWindow(Buffer.from(`${'y'.repeat(101)}\nok\n`), 0, 1, 10, 100, 10_000)?.rows).toEqual(['2\tok']);
  });
});
