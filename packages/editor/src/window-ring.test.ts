import { countLineFeedsIn } from '@bough/workspace/internal';
import { describe, expect, it } from 'vitest';
import { windowRing } from './internal/window-ring.js';

describe('windowRing', () => {
  it('counts line feeds in any range of any buffer exactly like indexOf, with and without SIMD', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (const simd of [true, false]) {
      const ring = windowRing(3, 1000, simd);
      expect(ring.buffers).toHaveLength(3);
      for (const buffer of ring.buffers) {
        expect(buffer.length).toBe(1000);
        for (let i = 0; i < buffer.length; i++) buffer[i] = random() < 0.1 ? 10 : Math.floor(random() * 256);
      }
      for (let trial = 0; trial < 300; trial++) {
        const buffer = ring.buffers[trial % 3]!;
        const from = Math.floor(random() * 1000);
        const to = from + Math.floor(random() * (1001 - from));
        expect(ring.countLineFeeds(buffer, from, to)).toBe(countLineFeedsIn(buffer, from, to));
      }
      expect(ring.countLineFeeds(ring.buffers[1]!, 10, 5)).toBe(0);
      // Writes through one buffer never show up in another.
      ring.buffers[0]!.fill(10);
      ring.buffers[2]!.fill(0);
      expect(ring.countLineFeeds(ring.buffers[0]!, 0, 1000)).toBe(1000);
      expect(ring.countLineFeeds(ring.buffers[2]!, 0, 1000)).toBe(0);
    }
  });
});
