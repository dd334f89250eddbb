// Keeps the smallest N items of a stream in a fixed-size max-heap, so ripgrep can walk in parallel (unordered) while
// the answer stays the same as a sorted walk would give: the first N results in a fixed order, whatever the arrival
// order. Memory is O(N) however many items stream past.

/**
 * Orders workspace-relative paths the way ripgrep's `--sort=path` walk does: component by component, each name by
 * its bytes (UTF-8 byte order is code point order). Comparing characters with '/' as the lowest makes `a/x` come
 * before `a.b/y`, as the names `a` < `a.b` do; surrogate pairs are moved above U+E000–U+FFFF to get code point order.
 */
export function comparePaths(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === 0x2f) return -1;
    if (y === 0x2f) return 1;
    return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}

/** The `limit` smallest items seen so far under `compare`; `add` is O(log limit). */
export class BoundedBest<T> {
  readonly #heap: T[] = [];
  readonly #limit: number;
  readonly #compare: (a: T, b: T) => number;

  constructor(limit: number, compare: (a: T, b: T) => number) {
    this.#limit = Math.max(0, Math.floor(limit));
    this.#compare = compare;
  }

  /** Offers one item; it is kept only while it is among the `limit` smallest. */
  add(item: T): void {
    const heap = this.#heap;
    if (heap.length < this.#limit) {
      heap.push(item);
      this.#up(heap.length - 1);
    } else if (heap.length > 0 && this.#compare(item, heap[0] as T) < 0) {
      heap[0] = item;
      this.#down(0);
    }
  }

  /** Whether `item` would be kept if offered now (cheap pre-check before building it). */
  wouldKeep(item: T): boolean {
    return this.#heap.length < this.#limit || (this.#heap.length > 0 && this.#compare(item, this.#heap[0] as T) < 0);
  }

  /** Number of items held. */
  get size(): number {
    return this.#heap.length;
  }

  /** The kept items, smallest first. */
  sorted(): T[] {
    return [...this.#heap].sort(this.#compare);
  }

  #up(index: number): void {
    const heap = this.#heap;
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (this.#compare(heap[child] as T, heap[parent] as T) <= 0) break;
      [heap[child], heap[parent]] = [heap[parent] as T, heap[child] as T];
      child = parent;
    }
  }

  #down(index: number): void {
    const heap = this.#heap;
    let parent = index;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let largest = parent;
      if (left < heap.length && this.#compare(heap[left] as T, heap[largest] as T) > 0) largest = left;
      if (right < heap.length && this.#compare(heap[right] as T, heap[largest] as T) > 0) largest = right;
      if (largest === parent) return;
      [heap[parent], heap[largest]] = [heap[largest] as T, heap[parent] as T];
      parent = largest;
    }
  }
}
