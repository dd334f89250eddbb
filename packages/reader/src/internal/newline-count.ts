/**
 * A 187-byte WebAssembly module with one export, `c(start, length) → count`: the number of 0x0A bytes in its
 * imported memory from `start` for `length` bytes. It compares 64 bytes per loop turn with SIMD (`i8x16.eq`, then
 * `i8x16.bitmask` + `i32.popcnt` per 16 bytes) and finishes the remainder one byte at a time. Its text form:
 *
 *   (func (param $p i32) (param $n i32) (result i32) (local $end i32) (local $c i32) (local $nl v128)
 *     end = p + n;  nl = i8x16.splat(10)
 *     while (p + 64 <= end) { c += Σ_{k=0..3} popcnt(bitmask(i8x16.eq(v128.load(p + 16k), nl)));  p += 64 }
 *     while (p < end) { c += load8_u(p) == 10;  p += 1 }
 *     return c)
 */
const MODULE_BASE64 =
  'AGFzbQEAAAABBwFgAn9/AX8CCAEBbQFtAgAAAwIBAAcFAQFjAAAKkgEBjwECAn8BeyAAIAFqIQJBCv0PIQQCQANAIABBwABqIAJLDQEgAyAA/QAAACAE' +
  '/SP9ZGlqIAD9AAAQIAT9I/1kaWogAP0AACAgBP0j/WRpaiAA/QAAMCAE/SP9ZGlqIQMgAEHAAGohAAwACwsCQANAIAAgAk8NASADIAAtAABBCkZqIQMg' +
  'AEEBaiEADAALCyADCw==';

const PAGE = 65_536;

/** The slice of the WebAssembly global used here (the project's type libraries do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/** Compiled once; undefined where WebAssembly or its SIMD extension is missing (e.g. `--jitless`). */
const compiled: object | undefined = (() => {
  try {
    return wasm ? new wasm.Module(Buffer.from(MODULE_BASE64, 'base64')) : undefined;
  } catch {
    return undefined;
  }
})();

/** A reusable read buffer plus a newline counter over any range of it. */
export interface CountingBuffer {
  buffer: Buffer;
  /** Number of `\n` bytes in `buffer[from, to)`. */
  count(from: number, to: number): number;
}

function countWithIndexOf(buffer: Buffer, from: number, to: number): number {
  let found = 0;
  let at = buffer.indexOf(10, from);
  while (at >= 0 && at < to) {
    found++;
    at = buffer.indexOf(10, at + 1);
  }
  return found;
}

/** Below this buffer size a plain Buffer with indexOf is cheaper than instantiating the counting module. */
const WASM_MIN_BYTES = 64 * 1024;

/**
 * Allocates a `bytes`-long read buffer. When possible it lives in a private WebAssembly memory so newlines are counted
 * by the SIMD module above without copying; otherwise it is a plain Buffer counted with `indexOf`.
 */
export function countingBuffer(bytes: number): CountingBuffer {
  // A WebAssembly memory and instance per call only pays off for large reads; small ones count with indexOf.
  if (wasm && compiled && bytes >= WASM_MIN_BYTES) {
    try {
      const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE)) });
      const instance = new wasm.Instance(compiled, { m: { m: memory } });
      const wasmCount = instance.exports.c as (start: number, length: number) => number;
      const buffer = Buffer.from(memory.buffer, 0, bytes);
      return { buffer, count: (from, to) => (to > from ? wasmCount(from, to - from) >>> 0 : 0) };
    } catch {
      // fall through to the plain buffer
    }
  }
  const buffer = Buffer.alloc(bytes);
  return { buffer, count: (from, to) => countWithIndexOf(buffer, from, to) };
}
