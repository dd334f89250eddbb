// Counting 0x0A bytes fast, so confirming a match deep inside a large file does not cost one indexOf call per line.
// The count runs in a tiny WebAssembly function that compares 16 bytes at a time (SIMD); the read buffer lives in
// that module's memory, so nothing is copied. Where WebAssembly or its SIMD extension is unavailable (--jitless, old
// engines) a plain Buffer and indexOf are used instead; both give the same numbers.

/** A reusable read buffer with a newline counter over any range of it. */
export interface NewlineBuffer {
  readonly buffer: Buffer;
  /** Number of `\n` bytes in `buffer[from, to)`. */
  count(from: number, to: number): number;
}

// Hand-assembled module, written out so each byte can be checked against the WebAssembly spec.
//   import memory "m"."m";  export func "c"(p: i32, n: i32) -> i32
//   end = p + n; nl = i8x16.splat(10)
//   while (p + 16 <= end) { total += popcnt(i8x16.bitmask(i8x16.eq(v128.load(p), nl))); p += 16 }
//   while (p < end) { total += load8_u(p) == 10; p += 1 }
//   return total
const P = 0; // param: start offset
const N = 1; // param: length
const END = 2;
const TOTAL = 3;
const NL = 4; // v128 of sixteen 0x0A bytes
const op = {
  block: 0x02,
  loop: 0x03,
  void: 0x40,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  get: 0x20,
  set: 0x21,
  load8u: 0x2d,
  const: 0x41,
  eq: 0x46,
  gtU: 0x4b,
  geU: 0x4f,
  popcnt: 0x69,
  add: 0x6a,
  simd: 0xfd,
  i32: 0x7f,
  v128: 0x7b,
} as const;

const BODY = [
  // locals: two i32 (END, TOTAL), one v128 (NL)
  2,
  2,
  op.i32,
  1,
  op.v128,
  ...[op.get, P, op.get, N, op.add, op.set, END],
  ...[op.const, 10, op.simd, 0x0f /* i8x16.splat */, op.set, NL],
  ...[op.block, op.void, op.loop, op.void],
  ...[op.get, P, op.const, 16, op.add, op.get, END, op.gtU, op.brIf, 1],
  ...[op.get, TOTAL, op.get, P, op.simd, 0x00 /* v128.load */, 0, 0, op.get, NL],
  ...[op.simd, 0x23 /* i8x16.eq */, op.simd, 0x64 /* i8x16.bitmask */, op.popcnt, op.add, op.set, TOTAL],
  ...[op.get, P, op.const, 16, op.add, op.set, P, op.br, 0, op.end, op.end],
  ...[op.block, op.void, op.loop, op.void],
  ...[op.get, P, op.get, END, op.geU, op.brIf, 1],
  ...[op.get, TOTAL, op.get, P, op.load8u, 0, 0, op.const, 10, op.eq, op.add, op.set, TOTAL],
  ...[op.get, P, op.const, 1, op.add, op.set, P, op.br, 0, op.end, op.end],
  ...[op.get, TOTAL, op.end],
];

function uleb(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    out.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return out;
}

const section = (id: number, bytes: number[]) => [id, ...uleb(bytes.length), ...bytes];
const name = (text: string) => [text.length, ...Buffer.from(text, 'ascii')];

const MODULE_BYTES = Uint8Array.from([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
  ...section(1, [1, 0x60, 2, op.i32, op.i32, 1, op.i32]), // one type: (i32, i32) -> i32
  ...section(2, [1, ...name('m'), ...name('m'), 0x02, 0x00, 1]), // import memory m.m, at least one page
  ...section(3, [1, 0]), // one function of type 0
  ...section(7, [1, ...name('c'), 0x00, 0]), // export it as "c"
  ...section(10, [1, ...uleb(BODY.length), ...BODY]),
]);

/** The slice of the WebAssembly global used here (the project's type libraries do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
const WASM_PAGE = 65_536;

let compiled: object | null | undefined;
function counterModule(): object | null {
  if (compiled === undefined) {
    try {
      compiled = wasm ? new wasm.Module(MODULE_BYTES) : null;
    } catch {
      compiled = null; // no SIMD in this engine
    }
  }
  return compiled;
}

function countWithIndexOf(buffer: Buffer, from: number, to: number): number {
  let found = 0;
  for (let at = buffer.indexOf(0x0a, from); at >= 0 && at < to; at = buffer.indexOf(0x0a, at + 1)) found++;
  return found;
}

/** Allocates a `bytes`-long read buffer whose newlines are counted with SIMD when the engine allows it. */
export function newlineBuffer(bytes: number, options: { plain?: boolean } = {}): NewlineBuffer {
  const module = options.plain ? null : counterModule();
  if (wasm && module) {
    try {
      const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / WASM_PAGE)) });
      const count = new wasm.Instance(module, { m: { m: memory } }).exports.c as (p: number, n: number) => number;
      const buffer = Buffer.from(memory.buffer, 0, bytes);
      return { buffer, count: (from, to) => (to > from ? count(from, to - from) >>> 0 : 0) };
    } catch {
      // fall back to the plain buffer below
    }
  }
  const buffer = Buffer.alloc(bytes);
  return { buffer, count: (from, to) => countWithIndexOf(buffer, from, to) };
}
