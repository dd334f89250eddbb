import { countLineFeeds } from './byte-edit.js';

/**
 * A 192-byte WebAssembly module exporting `n(from, to) → count`: the number of 0x0A bytes in `[from, to)` of the
 * memory it imports as `e.m`. It compares 64 bytes per turn (four `v128.load` + `i8x16.eq` against a splat of 10,
 * each reduced with `i8x16.bitmask` and `i32.popcnt`), then finishes byte by byte. As text:
 *
 *   (func (param $p i32) (param $e i32) (result i32) (local $c i32) (local $nl v128)
 *     nl = i8x16.splat(10)
 *     while (p + 64 <= e) { c += Σ_{k<4} popcnt(bitmask(i8x16.eq(v128.load(p + 16k), nl))); p += 64 }
 *     while (p < e) { c += load8_u(p) == 10; p += 1 }
 *     return c)
 */
const COUNTER_BASE64 =
  'AGFzbQEAAAABBwFgAn9/AX8CCAEBZQFtAgABAwIBAAcFAQFuAAAKlwEBlAECAX8Be0EK/Q8hAwJAA0AgAEHAAGogAUsNASACIAD9AAAAIAP9I/1kaWoh' +
  'AiACIAD9AAAQIAP9I/1kaWohAiACIAD9AAAgIAP9I/1kaWohAiACIAD9AAAwIAP9I/1kaWohAiAAQcAAaiEADAALCwJAA0AgACABTw0BIAIgAC0AAEEK' +
  'RmohAiAAQQFqIQAMAAsLIAIL';

const PAGE = 65_536;

/** The part of the WebAssembly global used here (the project's type libraries do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/** Compiled on first use; null where WebAssembly or its SIMD extension is unavailable (e.g. `--jitless`). */
let compiled: object | null | undefined;

function counterModule(): object | null {
  if (compiled === undefined) {
    try {
      compiled = wasm ? new wasm.Module(Buffer.from(COUNTER_BASE64, 'base64')) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** Equal-sized scratch buffers for a streamed pass, and a line-feed counter that works on any range of them. */
export interface WindowRing {
  readonly buffers: readonly Buffer[];
  /** Number of `\n` bytes in `buffer[from, to)`, where `buffer` is one of {@link WindowRing.buffers}. */
  countLineFeeds(buffer: Buffer, from: number, to: number): number;
}

/**
 * Allocates `count` buffers of `size` bytes. Where possible they share one private WebAssembly memory, so line feeds
 * are counted with SIMD in place (no copy); otherwise they are plain Buffers counted with `indexOf`.
 */
export function windowRing(count: number, size: number, useWasm = true): WindowRing {
  const module = useWasm ? counterModule() : null;
  if (wasm && module) {
    try {
      const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil((count * size) / PAGE)) });
      const counter = new wasm.Instance(module, { e: { m: memory } }).exports.n as (from: number, to: number) => number;
      const buffers = Array.from({ length: count }, (_, i) => Buffer.from(memory.buffer, i * size, size));
      return {
        buffers,
        countLineFeeds: (buffer, from, to) =>
          to > from ? counter(buffer.byteOffset + from, buffer.byteOffset + to) >>> 0 : 0,
      };
    } catch {
      // fall through to plain buffers
    }
  }
  return {
    buffers: Array.from({ length: count }, () => Buffer.allocUnsafe(size)),
    countLineFeeds,
  };
}
