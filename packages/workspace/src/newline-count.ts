/**
 * Counting line feeds at memory speed, shared by every tool that scans file bytes (the reader's windows, the
 * search confirmation pass, the editor's streamed edits).
 *
 * The counter is a 195-byte WebAssembly module exporting `n(from, to) → count`: the number of 0x0A bytes in
 * `[from, to)` of the memory it imports as `e.m`, declared shared (at most 4 GiB) so the same bytes can also be read by
 * another thread. It compares 64 bytes per turn — four `v128.load` + `i8x16.eq` against a splat of 10, each reduced with
 * `i8x16.bitmask` and `i32.popcnt` — then finishes byte by byte. As text:
 *
 *   (import "e" "m" (memory 1 65536 shared))
 *   (func (param $p i32) (param $e i32) (result i32) (local $c i32) (local $nl v128)
 *     nl = i8x16.splat(10)
 *     while (p + 64 <= e) { c += Σ_{k<4} popcnt(bitmask(i8x16.eq(v128.load(p + 16k), nl))); p += 64 }
 *     while (p < e) { c += load8_u(p) == 10; p += 1 }
 *     return c)
 *
 * Where WebAssembly or its SIMD extension is missing (`--jitless`, old engines) a plain buffer counted with
 * `indexOf` is used instead; both give the same numbers.
 */
const COUNTER_BASE64 =
  'AGFzbQEAAAABBwFgAn9/AX8CCwEBZQFtAgMBgIAEAwIBAAcFAQFuAAAKlwEBlAECAX8Be0EK/Q8hAwJAA0AgAEHAAGogAUsNASACIAD9AAAAIAP9I/1k' +
  'aWohAiACIAD9AAAQIAP9I/1kaWohAiACIAD9AAAgIAP9I/1kaWohAiACIAD9AAAwIAP9I/1kaWohAiAAQcAAaiEADAALCwJAA0AgACABTw0BIAIgAC0A' +
  'AEEKRmohAiAAQQFqIQAMAAsLIAIL';

const PAGE = 65_536;

/** Below this size a plain buffer is cheaper than setting up a WebAssembly memory and instance. */
const SIMD_MIN_BYTES = 64 * 1024;

/** The part of the WebAssembly global used here (the project's type libraries do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number; maximum: number; shared: boolean }) => { buffer: SharedArrayBuffer };
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/** Compiled on first use; null where WebAssembly or its SIMD extension is unavailable. */
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

/** Number of `\n` bytes in `bytes[from, to)`, with `indexOf`: the portable counter. */
export function countLineFeedsIn(bytes: Uint8Array, from: number, to: number): number {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let found = 0;
  for (let at = buffer.indexOf(0x0a, from); at >= 0 && at < to; at = buffer.indexOf(0x0a, at + 1)) found++;
  return found;
}

/** A reusable read buffer with a line-feed counter over any range of it. */
export interface CountingBuffer {
  /** The scratch bytes; read file data into them, then count. */
  readonly buffer: Buffer;
  /** The memory behind `buffer` (a SharedArrayBuffer when the SIMD counter is in use, so a worker can see it too). */
  readonly memory: ArrayBufferLike;
  /** Whether counting runs in the SIMD module (false: the `indexOf` fallback). */
  readonly simd: boolean;
  /** Number of `\n` bytes in `buffer[from, to)`. */
  count(from: number, to: number): number;
}

/** How {@link countingBuffer} may allocate. */
export interface CountingBufferOptions {
  /**
   * `true`: use the SIMD counter whenever the engine has it; `false`: never (plain buffer and `indexOf`); unset: only
   * for buffers of 64 KiB and more, where it pays for its set-up.
   */
  readonly simd?: boolean;
}

/**
 * Allocates a `bytes`-long scratch buffer (zero-filled) whose line feeds can be counted over any range. With the SIMD
 * counter the buffer lives in a private shared WebAssembly memory and is counted in place, without copying.
 */
export function countingBuffer(bytes: number, options: CountingBufferOptions = {}): CountingBuffer {
  const wanted = options.simd ?? bytes >= SIMD_MIN_BYTES;
  const module = wanted ? counterModule() : null;
  if (wasm && module && bytes > 0) {
    try {
      const pages = Math.ceil(bytes / PAGE);
      const memory = new wasm.Memory({ initial: pages, maximum: pages, shared: true });
      const counter = new wasm.Instance(module, { e: { m: memory } }).exports.n as (from: number, to: number) => number;
      const buffer = Buffer.from(memory.buffer, 0, bytes);
      return {
        buffer,
        memory: memory.buffer,
        simd: true,
        count: (from, to) => (to > from ? counter(from, to) >>> 0 : 0),
      };
    } catch {
      // fall through to the plain buffer
    }
  }
  const memory = new ArrayBuffer(bytes);
  const buffer = Buffer.from(memory, 0, bytes);
  return { buffer, memory, simd: false, count: (from, to) => countLineFeedsIn(buffer, from, to) };
}
