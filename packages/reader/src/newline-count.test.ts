import { describe, expect, it } from 'vitest';
import { countingBuffer } from './internal/newline-count.js';

function naive(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (bytes[i] === 10) n++;
  return n;
}

describe('countingBuffer', () => {
  it.each([1, 100, 64 * 1024 - 1, 64 * 1024, 1024 * 1024 + 3])(
    'counts newlines exactly in a %i-byte buffer',
    (size) => {
      const counter = countingBuffer(size);
      expect(counter.buffer.length).toBe(size);
      let seed = size;
      for (let i = 0; i < size; i++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        counter.buffer[i] = seed % 7 === 0 ? 10 : 97;
      }
      const spans: [number, number][] = [
        [0, size],
        [1, size - 1],
        [size >> 1, size],
        [3, 3 + Math.min(33, size - 3)],
      ];
      for (const [from, to] of spans) {
        if (from < 0 || to < from || to > size) continue;
        expect(counter.count(from, to)).toBe(naive(counter.buffer, from, to));
      }
      expect(counter.count(5, 5)).toBe(0);
    },
  );
});
