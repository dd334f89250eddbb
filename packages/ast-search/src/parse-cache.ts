import type { SgRoot } from '@ast-grep/napi';
import type { FileStamp } from '@bough/workspace/internal';

/**
 * What identifies one version of a file: `@bough/workspace`'s file stamp (device, inode, size, modification and change
 * times in nanoseconds), here taken from the descriptor the workspace gate opened.
 */
export type { FileStamp };

/** Where one match is in its file and what it says (the file name is added per call). */
export interface CachedMatch {
  readonly line: number;
  readonly col: number;
  readonly end_line: number;
  readonly text: string;
}

/** What one query found in one unchanged file: every match counted, the first `matches` kept. */
export interface CachedResult {
  readonly total: number;
  readonly matches: readonly CachedMatch[];
}

/**
 * One file as it was last read: its text, its parsed tree once some query needed it, and what the latest few queries
 * found in it (so the same question on an unchanged file is answered without matching the tree again).
 */
export interface CachedSource {
  readonly stamp: FileStamp;
  readonly lang: string;
  readonly text: string;
  readonly root: SgRoot | undefined;
  /** Query key (language, matchers, text cap) → result; at most {@link RESULTS_PER_FILE}, oldest dropped first. */
  readonly results?: ReadonlyMap<string, CachedResult>;
}

/** Query results remembered per file. */
export const RESULTS_PER_FILE = 4;

// Native tree bytes per source byte, measured on CPython's standard library and typescript's lib (RSS growth of a
// process holding every tree, divided by the source bytes): about 9–14; the estimate rounds up.
const TREE_BYTES_PER_SOURCE_BYTE = 16;

function costOf(entry: CachedSource): number {
  // Text is held once by V8 (1 byte per char for Latin-1 text, 2 otherwise; 2 is assumed), the tree natively.
  let cost = entry.text.length * 2 + (entry.root ? entry.text.length * TREE_BYTES_PER_SOURCE_BYTE : 0) + 256;
  for (const [key, result] of entry.results ?? []) {
    cost += key.length * 2 + 64;
    for (const match of result.matches) cost += match.text.length * 2 + 64;
  }
  return cost;
}

/**
 * Parsed trees of unchanged files kept between ast_search calls, least recently used evicted first once the estimated
 * memory (text plus native tree, see `bytes`) passes `maxBytes`. Entries are keyed by the real path the workspace gate
 * opened and used only while the file's stamp (dev, ino, size, mtime, ctime) is the one they were read with, so an
 * edited file is read and parsed again alone; nothing is returned for a file the gate did not just open.
 */
export class AstParseCache {
  #maxBytes: number;
  #bytes = 0;
  readonly #entries = new Map<string, CachedSource>();

  /** A cache holding at most about `maxBytes` of text and trees (0 keeps nothing). */
  constructor(maxBytes: number) {
    this.#maxBytes = Math.max(0, maxBytes);
  }

  /** Estimated bytes held now (source text and native trees). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Files held now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The cap in bytes; lowering it evicts at once. */
  get maxBytes(): number {
    return this.#maxBytes;
  }

  set maxBytes(value: number) {
    this.#maxBytes = Math.max(0, value);
    this.#evict();
  }

  /** Whether an entry is held for `path`, whatever its stamp (it does not become the most recently used). */
  has(path: string): boolean {
    return this.#entries.has(path);
  }

  /** The entry for `path` when it was read with this very stamp and language; it becomes the most recently used. */
  get(path: string, stamp: FileStamp, lang: string): CachedSource | undefined {
    const entry = this.#entries.get(path);
    if (!entry) return undefined;
    this.#entries.delete(path);
    if (entry.stamp !== stamp || entry.lang !== lang) {
      this.#bytes -= costOf(entry);
      return undefined;
    }
    this.#entries.set(path, entry);
    return entry;
  }

  /** Stores (or replaces) what was read from `path`; an entry bigger than the whole cap is not kept. */
  set(path: string, entry: CachedSource): void {
    this.delete(path);
    const cost = costOf(entry);
    if (cost > this.#maxBytes) return;
    this.#entries.set(path, entry);
    this.#bytes += cost;
    this.#evict();
  }

  /** Forgets one file. */
  delete(path: string): void {
    const old = this.#entries.get(path);
    if (!old) return;
    this.#entries.delete(path);
    this.#bytes -= costOf(old);
  }

  /** Forgets everything. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #evict(): void {
    for (const [path, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(path);
      this.#bytes -= costOf(entry);
    }
  }
}
