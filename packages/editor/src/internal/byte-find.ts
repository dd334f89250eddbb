/*
 * A byte search whose cost has a ceiling. `Buffer.indexOf` is fast on ordinary bytes but can cost haystack × needle on
 * repetitive input, in one call that nothing can pause. The byte paths of `edit` are only shortcuts (the paced text
 * path handles whatever they decline), so this search looks for a short anchor in short windows, verifies candidates
 * block by block, and gives up once verifying has cost more than its allowance; the caller then declines.
 */

/** Bytes of the needle `indexOf` looks for (its worst case is this many × the window). */
const ANCHOR = 32;
/** Bytes of haystack one `indexOf` call covers. */
const WINDOW = 16_384;
/** Bytes of needle one comparison checks when a candidate is verified. */
const BLOCK = 256;

/** What verifying candidates may still cost, shared by the searches of one scan. */
export interface ByteAllowance {
  left: number;
}

/** An allowance of a few passes over `haystackBytes` plus the needle: linear, never quadratic. */
export function byteAllowance(haystackBytes: number, needleBytes: number): ByteAllowance {
  return { left: 4 * haystackBytes + 4 * needleBytes };
}

/**
 * The first place in `[from, to)` where `needle` begins and fits wholly before `to`, -1 when there is none, or
 * `'over'` when verifying candidates spent the allowance (the caller must then leave the search to the text path).
 */
export function findBytes(
  bytes: Uint8Array,
  needle: Uint8Array,
  from: number,
  to: number,
  allowance: ByteAllowance,
): number | 'over' {
  const m = needle.length;
  const anchor = Buffer.from(needle.buffer, needle.byteOffset, Math.min(ANCHOR, m));
  for (let start = from; start + m <= to; ) {
    const window = Buffer.from(
      bytes.buffer,
      bytes.byteOffset + start,
      Math.min(to, start + WINDOW + anchor.length - 1) - start,
    );
    const hit = window.indexOf(anchor);
    if (hit < 0) {
      start += WINDOW;
      continue;
    }
    const at = start + hit;
    if (at + m > to) return -1;
    let whole = true;
    for (let k = anchor.length; k < m && whole; k += BLOCK) {
      const end = Math.min(m, k + BLOCK);
      whole = Buffer.compare(bytes.subarray(at + k, at + end), needle.subarray(k, end)) === 0;
      allowance.left -= BLOCK;
    }
    if (whole) return at;
    if (allowance.left < 0) return 'over';
    start = at + 1;
  }
  return -1;
}
