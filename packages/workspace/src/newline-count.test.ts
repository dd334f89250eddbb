import { describe, expect, it } from 'vitest';
import { countingBuffer, countLineFeedsIn } from './newline-count.js';

function naive(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (bytes[i] === 10) n++;
  return n;
}

function fill(buffer: Buffer, seed: number, every: number) {
  let s = seed;
  for (let i = 0; i < buffer.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    buffer[i] = s % every === 0 ? 10 : 97;
  }
}

describe('countingBuffer', () => {
  it.each([1, 63, 64, 65, 100, 64 * 1024 - 1, 64 * 1024, 1024 * 1024 + 3])(
    'counts line feeds exactly over any range of a %i-byte buffer, with and without SIMD',
    (size) => {
      for (const simd of [true, false, undefined]) {
        const counter = countingBuffer(size, simd === undefined ? {} : { simd });
        expect(counter.buffer.length).toBe(size);
        if (simd === false) expect(counter.simd).toBe(false);
        fill(counter.buffer, size, 7);
        const spans: [number, number][] = [
          [0, size],
          [1, size - 1],
          [size >> 1, size],
          [3, Math.min(size, 3 + 130)],
          [5, 5],
          [size, 0],
        ];
        for (const [from, to] of spans) {
          if (from < 0 || from > size || to > size) continue;
          expect(counter.count(from, to)).toBe(to > from ? naive(counter.buffer, from, to) : 0);
        }
      }
    },
  );

  it('uses the SIMD counter on this engine when asked, on memory a worker could share', () => {
    const counter = countingBuffer(1024, { simd: true });
    expect(counter.simd).toBe(true);
    expect(counter.memory).toBeInstanceOf(SharedArrayBuffer);
    counter.buffer.fill(10);
    expect(counter.count(0, 1024)).toBe(1024);
  });

  it('stays plain for small buffers unless asked', () => {
    expect(countingBuffer(100).simd).toBe(false);
    expect(countingBuffer(64 * 1024).simd).toBe(true);
  });

  it('counts a slice of any Uint8Array with indexOf', () => {
    const bytes = new Uint8Array(Buffer.from('a\nb\n\nc\n'));
    expect(countLineFeedsIn(bytes, 0, bytes.length)).toBe(4);
    expect(countLineFeedsIn(bytes.subarray(2), 0, 3)).toBe(2);
  });
});
