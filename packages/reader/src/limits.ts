/** Every limit of `@bough/reader`; each one can be overridden through `ReaderOptions.limits`. */
export const DEFAULT_READER_LIMITS = {
  /** Lines per read when `limit` is missing or not positive: a few screens of code, the peers' common default. */
  defaultLineLimit: 2000,
  /** Longer lines (minified bundles, data blobs) are cut with a marker so one line cannot fill the context. */
  maxLineChars: 2000,
  /** Bytes of rows per response; the rest is reachable with `next_offset`. */
  maxOutputBytes: 50_000,
  /** A NUL in this many leading bytes marks a file as binary (the long-standing git/grep heuristic window). */
  binarySniffBytes: 8192,
  /** Read size while streaming; large chunks keep the newline scan at memory speed. */
  chunkBytes: 1024 * 1024,
  /** Up to this size `stat` counts lines and UTF-16 files are read; also a cap on `tailScanMaxBytes`. */
  fullScanMaxBytes: 64 * 1024 * 1024,
  /** Up to this size a read goes on past its window to the end, so `total_lines` and `sha256` are known; a bigger file is read up to the window's end only, so a window costs the window. */
  tailScanMaxBytes: 2 * 1024 * 1024,
  /** Images are sent inline as base64 (a third larger); bigger ones would crowd out everything else. */
  maxImageBytes: 5 * 1024 * 1024,
  /** Document input cap for `open`: conversion cost grows with input size. */
  maxDocumentBytes: 50 * 1024 * 1024,
  /** HTML is converted synchronously; above this size the conversion could stall the host. */
  maxHtmlBytes: 10 * 1024 * 1024,
  /** Decompressed size of any one zip entry (docx/pptx); real slides and documents are far smaller. */
  maxZipEntryBytes: 64 * 1024 * 1024,
  /** Decompressed size of all inspected zip entries together: the zip-bomb ceiling. */
  maxZipTotalBytes: 200 * 1024 * 1024,
  /** Entries in a zip central directory; office files have hundreds, bombs have millions. */
  maxZipEntries: 10_000,
  /** Converted text kept per document; the window reads page through it. */
  maxConvertedChars: 20 * 1024 * 1024,
  /** Wall-clock budget for one conversion or download; a converter still running then is terminated. */
  conversionTimeoutMs: 30_000,
  /** Heap of the worker a pdf, docx or html conversion runs in; a document needing more is refused, not the host. */
  conversionMemoryMb: 1024,
  /** Redirect hops followed for a remote document, each re-checked. */
  maxRedirects: 5,
  /** Entries returned by one `list_dir`; the rest are counted, not listed. */
  maxListEntries: 1000,
  /** Entries a `list_dir` walk may visit before it stops (bounds work on huge trees). */
  maxWalkEntries: 100_000,
  /** Paths one `read_many` accepts; more is refused, so one call cannot walk a whole tree. */
  maxReadManyPaths: 50,
  /** Bytes of rows one `read_many` returns in all; the paths after it get `output_budget` (read them again later). */
  maxReadManyBytes: 200_000,
  /** How long converted documents stay cached. */
  cacheTtlMs: 300_000,
  /** Converted documents kept in one cache; the oldest is dropped first. */
  cacheMaxEntries: 32,
} as const;

/** The shape of {@link DEFAULT_READER_LIMITS} with plain number fields, as callers pass overrides. */
export type ReaderLimits = { -readonly [K in keyof typeof DEFAULT_READER_LIMITS]: number };

/** Merges caller overrides over the defaults, ignoring values that are not finite non-negative numbers. */
export function resolveReaderLimits(overrides: Partial<ReaderLimits> | undefined): ReaderLimits {
  const limits: ReaderLimits = { ...DEFAULT_READER_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (key in limits && typeof value === 'number' && Number.isFinite(value) && value >= 0) {
      limits[key as keyof ReaderLimits] = value;
    }
  }
  return limits;
}
