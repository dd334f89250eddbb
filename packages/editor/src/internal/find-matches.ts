import type { Paced, WorkMeter } from '@bough/workspace/internal';

/*
 * Exact search that stays linear in the worst case and can be paused. The engine's `indexOf` is fast on ordinary text
 * but can cost haystack × needle on repetitive input (a 3,001-character needle in 2 MB of one letter: tens of seconds
 * in one call, nothing else served). So `indexOf` only ever looks for a short anchor (the needle's first characters)
 * inside a short window, which bounds each call; the candidates it finds are checked block by block, and once checking
 * has cost more than a few passes over the haystack the rest is searched with Knuth–Morris–Pratt, linear by
 * construction. Written here because no maintained library offers a pausable linear search over JS strings.
 */

/** Characters of the needle `indexOf` looks for (an engine search for this many costs at most this many × window). */
const ANCHOR = 32;
/** Characters of haystack one `indexOf` call covers. */
const WINDOW = 16_384;
/** Characters of needle one comparison checks when a candidate is verified. */
const BLOCK = 256;
/** Haystack characters the KMP fallback scans between two looks at the clock. */
const KMP_SLICE = 4_096;

/** The next place at or after `from` where `anchor` occurs, or -1; one bounded `indexOf` per window. */
function* nextAnchor(haystack: string, anchor: string, from: number, meter: WorkMeter): Paced<number> {
  for (let start = from; start + anchor.length <= haystack.length; start += WINDOW) {
    const window = haystack.slice(start, Math.min(haystack.length, start + WINDOW + anchor.length - 1));
    const at = window.indexOf(anchor);
    meter.note(at < 0 ? WINDOW : at + 1);
    if (at >= 0) return start + at;
    if (meter.due()) yield;
  }
  return -1;
}

/** Offsets of the non-overlapping occurrences of `needle` at or after `from` (at most `limit`), by KMP. */
function* kmp(haystack: string, needle: string, from: number, limit: number, meter: WorkMeter): Paced<number[]> {
  const m = needle.length;
  const border = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    const c = needle.charCodeAt(i);
    while (k > 0 && needle.charCodeAt(k) !== c) k = border[k - 1]!;
    if (needle.charCodeAt(k) === c) k++;
    border[i] = k;
  }
  meter.note(m);
  const found: number[] = [];
  let k = 0;
  for (let i = from; i < haystack.length && found.length < limit; ) {
    const end = Math.min(haystack.length, i + KMP_SLICE);
    for (; i < end; i++) {
      const c = haystack.charCodeAt(i);
      while (k > 0 && needle.charCodeAt(k) !== c) k = border[k - 1]!;
      if (needle.charCodeAt(k) === c) k++;
      if (k === m) {
        found.push(i - m + 1);
        k = 0;
        if (found.length >= limit) break;
      }
    }
    meter.note(KMP_SLICE);
    if (meter.due()) yield;
  }
  return found;
}

/**
 * Offsets of the non-overlapping occurrences of `needle` in `haystack`, left to right (at most `limit`), in time
 * linear in both; pauses whenever `meter` says a turn is due. An empty needle occurs nowhere.
 */
export function* findMatches(
  haystack: string,
  needle: string,
  meter: WorkMeter,
  limit = Number.POSITIVE_INFINITY,
): Paced<number[]> {
  const found: number[] = [];
  if (needle === '') return found;
  const m = needle.length;
  const anchor = needle.slice(0, ANCHOR);
  const blocks: string[] = [];
  for (let k = anchor.length; k < m; k += BLOCK) blocks.push(needle.slice(k, k + BLOCK));
  // Verifying candidates may cost this much before the search switches to KMP (a few passes, never quadratic).
  const allowance = 4 * haystack.length + 4 * m;
  let checked = 0;
  for (let from = 0; from + m <= haystack.length && found.length < limit; ) {
    const at = yield* nextAnchor(haystack, anchor, from, meter);
    if (at < 0 || at + m > haystack.length) break;
    let whole = true;
    for (let b = 0, k = anchor.length; b < blocks.length && whole; b++, k += BLOCK) {
      whole = haystack.startsWith(blocks[b]!, at + k);
      checked += BLOCK;
    }
    meter.note(BLOCK);
    if (whole) {
      found.push(at);
      from = at + m;
    } else from = at + 1;
    if (checked > allowance) return found.concat(yield* kmp(haystack, needle, from, limit - found.length, meter));
    if (meter.due()) yield;
  }
  return found;
}

/** Whether `needle` occurs at all (stops at the first occurrence). */
export function* occurs(haystack: string, needle: string, meter: WorkMeter): Paced<boolean> {
  return (yield* findMatches(haystack, needle, meter, 1)).length > 0;
}
