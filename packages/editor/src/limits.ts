/** Every limit of `@bough/editor`; each one can be overridden through `EditorOptions.limits`. */
export const DEFAULT_EDITOR_LIMITS = {
  /** An edit holds the whole file in memory twice (bytes and text); 256 MiB keeps that bounded on ordinary hosts. */
  maxFileBytes: 256 * 1024 * 1024,
  /** Content larger than this in one `write` is almost certainly a mistake by the caller, not source code. */
  maxWriteBytes: 64 * 1024 * 1024,
  /** Lines of unchanged text shown above and below each change in the returned diff (the unified-diff norm). */
  diffContextLines: 3,
  /** The diff is a confirmation, not a copy of the file: past this many lines it is cut with a marker. */
  maxDiffLines: 80,
  /** Very long lines (minified code) would swamp the diff, so each diff line is cut at this many characters. */
  maxDiffLineChars: 400,
  /** Line numbers of matches listed in a `multiple_matches` failure; enough to locate them without a flood. */
  maxReportedMatches: 50,
  /** Closest candidate windows returned when `old_string` is not found; more than three is noise to a model. */
  maxCandidates: 3,
  /** Candidates scoring below this similarity (0..1) are not worth showing. */
  minCandidateSimilarity: 0.5,
  /** Upper bound on line-pair comparisons when ranking miss candidates, so a huge file cannot stall a failed edit. */
  maxCandidateComparisons: 200_000,
  /** Characters of each candidate window's text echoed back; the line numbers let the model read the rest. */
  maxCandidateChars: 1_200,
  /** Up to this size an edit re-reads the file before writing and compares bytes, catching same-size rewrites. */
  verifyBytesMax: 8 * 1024 * 1024,
  /**
   * From this size (and above `verifyBytesMax`) a unique-match edit of CR-free UTF-8 streams: read, checked, hashed and
   * written a window at a time, so it never holds the whole file; anything else falls back to the whole-file path.
   */
  streamEditMinBytes: 8 * 1024 * 1024,
  /** Bytes read per window by a streamed edit; four windows in memory at once, small enough to stay in CPU cache. */
  streamChunkBytes: 1024 * 1024,
  /**
   * Largest content whose SHA-256 a success reports. Hashing costs about as much as copying the file, so past this size
   * `sha256` is left out (absent means "not computed"); a caller that needs the digest of every write raises it.
   */
  hashMaxBytes: 8 * 1024 * 1024,
  /** Bytes of an existing file sampled by `write` to keep its BOM, UTF-16 encoding and CRLF line endings. */
  styleSampleBytes: 64 * 1024,
  /** Edits one `multi_edit` call may carry; more than this is a rewrite, better sent as `write` or `patch`. */
  maxMultiEdits: 100,
  /**
   * A fuzzy match may cover at most this many times the length of old_string (plus 8 characters a line for
   * indentation); anything larger is refused rather than guessed.
   */
  fuzzyMaxSpanRatio: 2,
  /** Characters of patch text one `patch` call accepts. */
  maxPatchBytes: 8 * 1024 * 1024,
  /** Files one `patch` may touch. */
  maxPatchFiles: 500,
  /** Lines of the combined diff a `patch` response shows before it is cut. */
  maxPatchDiffLines: 400,
} as const;

/** The shape of {@link DEFAULT_EDITOR_LIMITS} with plain number fields, as callers pass overrides. */
export type EditorLimits = { -readonly [K in keyof typeof DEFAULT_EDITOR_LIMITS]: number };

/** Merges caller overrides over the defaults, ignoring values that are not finite positive numbers. */
export function resolveEditorLimits(overrides: Partial<EditorLimits> | undefined): EditorLimits {
  const limits: EditorLimits = { ...DEFAULT_EDITOR_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (key in limits && typeof value === 'number' && Number.isFinite(value) && value >= 0) {
      limits[key as keyof EditorLimits] = value;
    }
  }
  return limits;
}
