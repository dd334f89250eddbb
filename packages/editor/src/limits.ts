import { defineLimits, type LimitValues } from '@bough/core';

/**
 * Every limit of `@bough/editor`, defined once with core's limits mechanism: each can be overridden through the
 * `limits` option, a bad override throws a `ConfigurationError` naming the key, and a tool resolves them once when
 * it is built.
 */
export const EDITOR_LIMITS = defineLimits('editor', {
  maxFileBytes: {
    value: 256 * 1024 * 1024,
    reason:
      'An edit holds the whole file in memory twice (bytes and text); 256 MiB keeps that bounded on ordinary hosts.',
  },
  maxWriteBytes: {
    value: 64 * 1024 * 1024,
    reason: 'Content larger than this in one `write` is almost certainly a mistake by the caller, not source code.',
  },
  diffContextLines: {
    value: 3,
    rule: 'non_negative_integer',
    reason: 'Lines of unchanged text shown above and below each change in the returned diff (the unified-diff norm).',
  },
  maxDiffLines: {
    value: 80,
    reason: 'The diff is a confirmation, not a copy of the file: past this many lines it is cut with a marker.',
  },
  maxDiffLineChars: {
    value: 400,
    reason: 'Very long lines (minified code) would swamp the diff, so each diff line is cut at this many characters.',
  },
  maxReportedMatches: {
    value: 50,
    reason: 'Line numbers of matches listed in a `multiple_matches` failure; enough to locate them without a flood.',
  },
  maxCandidates: {
    value: 3,
    rule: 'non_negative_integer',
    reason: 'Closest candidate windows returned when `old_string` is not found; more than three is noise to a model.',
  },
  minCandidateSimilarity: {
    value: 0.5,
    rule: 'non_negative',
    reason: 'Candidates scoring below this similarity (0..1) are not worth showing.',
  },
  maxCandidateComparisons: {
    value: 200_000,
    reason:
      'Upper bound on line-pair comparisons when ranking miss candidates, so a huge file cannot stall a failed edit.',
  },
  maxCandidateChars: {
    value: 1_200,
    reason: "Characters of each candidate window's text echoed back; the line numbers let the model read the rest.",
  },
  verifyBytesMax: {
    value: 8 * 1024 * 1024,
    rule: 'non_negative_integer',
    reason: 'Up to this size an edit re-reads the file before writing and compares bytes, catching same-size rewrites.',
  },
  streamEditMinBytes: {
    value: 8 * 1024 * 1024,
    rule: 'non_negative_integer',
    reason:
      'From this size (and above `verifyBytesMax`) a unique-match edit of CR-free UTF-8 streams: read, checked, hashed and written a window at a time, so it never holds the whole file; anything else falls back to the whole-file path.',
  },
  streamChunkBytes: {
    value: 1024 * 1024,
    reason:
      'Bytes read per window by a streamed edit; four windows in memory at once, small enough to stay in CPU cache.',
  },
  hashMaxBytes: {
    value: 8 * 1024 * 1024,
    rule: 'non_negative_integer',
    reason:
      "Largest content whose SHA-256 a success reports. Hashing costs about as much as copying the file, so past this size `sha256` is left out (absent means 'not computed'); a caller that needs the digest of every write raises it.",
  },
  styleSampleBytes: {
    value: 64 * 1024,
    reason: 'Bytes of an existing file sampled by `write` to keep its BOM, UTF-16 encoding and CRLF line endings.',
  },
  maxMultiEdits: {
    value: 100,
    reason: 'Edits one `multi_edit` call may carry; more than this is a rewrite, better sent as `write` or `patch`.',
  },
  fuzzyMaxSpanRatio: {
    value: 2,
    rule: 'positive',
    reason:
      'A fuzzy match may cover at most this many times the length of old_string (plus 8 characters a line for indentation); anything larger is refused rather than guessed.',
  },
  maxMatchWork: {
    value: 20_000_000,
    reason:
      'Steps (line comparisons, range scans, re-indentation checks) one `edit`, `multi_edit` or patched file may spend locating its text across all tiers: about a second of CPU, far more than any real edit needs (finding text costs about the file plus the request). A request that needs more is refused with `too_large` (split it) instead of stalling.',
  },
  maxPatchBytes: {
    value: 8 * 1024 * 1024,
    reason: 'Characters of patch text one `patch` call accepts.',
  },
  maxPatchFiles: {
    value: 500,
    reason: 'Files one `patch` may touch.',
  },
  maxReportedHunks: {
    value: 1_000,
    reason:
      "Hunk reports (strategy and new lines) one `patch` response lists across its files; past this they are cut and `files[].hunks_total` gives each cut file's count. A response of 80,000 reports is megabytes no model reads, serialized in one piece.",
  },
  maxPatchDiffLines: {
    value: 400,
    reason: 'Lines of the combined diff a `patch` response shows before it is cut.',
  },
});

/** The resolved editor limits: one number per key of {@link EDITOR_LIMITS}. */
export type EditorLimits = LimitValues<keyof typeof EDITOR_LIMITS.defaults>;

/** The default of every editor limit. */
export const DEFAULT_EDITOR_LIMITS: EditorLimits = EDITOR_LIMITS.defaults;

/** Validates overrides and merges them over the defaults (a bad one throws); resolved limits pass through as they are. */
export function resolveEditorLimits(overrides: Partial<EditorLimits> | undefined): EditorLimits {
  return EDITOR_LIMITS.resolve(overrides);
}
