import { countingBuffer } from '@bough/workspace/internal';

/** Equal-sized scratch buffers for a streamed pass, and a line-feed counter that works on any range of them. */
export interface WindowRing {
  readonly buffers: readonly Buffer[];
  /** Number of `\n` bytes in `buffer[from, to)`, where `buffer` is one of {@link WindowRing.buffers} (or a slice). */
  countLineFeeds(buffer: Buffer, from: number, to: number): number;
}

/**
 * Allocates `count` buffers of `size` bytes, consecutive in one workspace counting buffer: where the engine allows it
 * that is a private WebAssembly memory, so line feeds are counted with SIMD in place (no copy); otherwise a plain
 * buffer counted with `indexOf`.
 */
export function windowRing(count: number, size: number, useWasm = true): WindowRing {
  const scratch = countingBuffer(count * size, { simd: useWasm });
  const base = scratch.buffer.byteOffset;
  return {
    buffers: Array.from({ length: count }, (_, i) => scratch.buffer.subarray(i * size, (i + 1) * size)),
    countLineFeeds: (buffer, from, to) => {
      const at = buffer.byteOffset - base;
      return scratch.count(at + from, at + to);
    },
  };
}
