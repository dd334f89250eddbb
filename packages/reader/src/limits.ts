import { defineLimits, type LimitValues } from '@bough/core';

/**
 * Every limit of `@bough/reader`, defined once with core's limits mechanism: each can be overridden through the
 * `limits` option, a bad override throws a `ConfigurationError` naming the key, and a tool resolves them once when
 * it is built.
 */
export const READER_LIMITS = defineLimits('reader', {
  defaultLineLimit: {
    value: 2000,
    reason: "Lines per read when `limit` is missing or not positive: a few screens of code, the peers' common default.",
  },
  maxLineChars: {
    value: 2000,
    reason: 'Longer lines (minified bundles, data blobs) are cut with a marker so one line cannot fill the context.',
  },
  maxOutputBytes: {
    value: 50_000,
    reason: 'Bytes of rows per response; the rest is reachable with `next_offset`.',
  },
  binarySniffBytes: {
    value: 8192,
    reason: 'A NUL in this many leading bytes marks a file as binary (the long-standing git/grep heuristic window).',
  },
  chunkBytes: {
    value: 1024 * 1024,
    reason: 'Read size while streaming; large chunks keep the newline scan at memory speed.',
  },
  fullScanMaxBytes: {
    value: 64 * 1024 * 1024,
    reason: 'Up to this size `stat` counts lines and UTF-16 files are read; also a cap on `tailScanMaxBytes`.',
  },
  tailScanMaxBytes: {
    value: 2 * 1024 * 1024,
    reason:
      "Up to this size a read goes on past its window to the end, so `total_lines` and `sha256` are known; a bigger file is read up to the window's end only, so a window costs the window.",
  },
  maxImageBytes: {
    value: 5 * 1024 * 1024,
    reason: 'Images are sent inline as base64 (a third larger); bigger ones would crowd out everything else.',
  },
  maxDocumentBytes: {
    value: 50 * 1024 * 1024,
    reason: 'Document input cap for `open`: conversion cost grows with input size.',
  },
  maxHtmlBytes: {
    value: 10 * 1024 * 1024,
    reason: 'HTML is converted synchronously; above this size the conversion could stall the host.',
  },
  maxZipEntryBytes: {
    value: 64 * 1024 * 1024,
    reason: 'Decompressed size of any one zip entry (docx/pptx); real slides and documents are far smaller.',
  },
  maxZipTotalBytes: {
    value: 200 * 1024 * 1024,
    reason: 'Decompressed size of all inspected zip entries together: the zip-bomb ceiling.',
  },
  maxZipEntries: {
    value: 10_000,
    reason: 'Entries in a zip central directory; office files have hundreds, bombs have millions.',
  },
  maxConvertedChars: {
    value: 20 * 1024 * 1024,
    reason: 'Converted text kept per document; the window reads page through it.',
  },
  conversionTimeoutMs: {
    value: 30_000,
    rule: 'timeout',
    reason: 'Wall-clock budget for one conversion or download; a converter still running then is terminated.',
  },
  conversionMemoryMb: {
    value: 1024,
    reason:
      'Heap of the worker a pdf, docx or html conversion runs in; a document needing more is refused, not the host.',
  },
  maxRedirects: {
    value: 5,
    rule: 'non_negative_integer',
    reason: 'Redirect hops followed for a remote document, each re-checked.',
  },
  maxListEntries: {
    value: 1000,
    reason: 'Entries returned by one `list_dir`; the rest are counted, not listed.',
  },
  maxWalkEntries: {
    value: 100_000,
    reason: 'Entries a `list_dir` walk may visit before it stops (bounds work on huge trees).',
  },
  maxReadManyPaths: {
    value: 50,
    reason: 'Paths one `read_many` accepts; more is refused, so one call cannot walk a whole tree.',
  },
  maxReadManyBytes: {
    value: 200_000,
    reason:
      'Bytes of rows one `read_many` returns in all; the paths after it get `output_budget` (read them again later).',
  },
  cacheTtlMs: {
    value: 300_000,
    rule: 'non_negative',
    reason: 'How long converted documents stay cached.',
  },
  cacheMaxEntries: {
    value: 32,
    rule: 'non_negative_integer',
    reason: 'Converted documents kept in one cache; the oldest is dropped first.',
  },
});

/** The resolved reader limits: one number per key of {@link READER_LIMITS}. */
export type ReaderLimits = LimitValues<keyof typeof READER_LIMITS.defaults>;

/** The default of every reader limit. */
export const DEFAULT_READER_LIMITS: ReaderLimits = READER_LIMITS.defaults;

/** Validates overrides and merges them over the defaults (a bad one throws); resolved limits pass through as they are. */
export function resolveReaderLimits(overrides: Partial<ReaderLimits> | undefined): ReaderLimits {
  return READER_LIMITS.resolve(overrides);
}
