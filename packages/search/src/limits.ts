/** Every limit of the search tool; each can be overridden through `SearchOptions.limits`. */
export interface SearchLimits {
  /** Time budget of one search; when it runs out the results found so far come back with `timed_out: true`. */
  readonly timeoutMs: number;
  /** Largest `max_results` a request may ask for. */
  readonly maxResults: number;
  /** Matches (grep) or paths (find) counted past the shown ones before the search stops and reports a lower bound. */
  readonly countLimit: number;
  /** Characters of one matching line shown before it is cut with a marker. */
  readonly maxLineChars: number;
  /** Longest accepted pattern or include glob, in characters. */
  readonly maxPatternLength: number;
  /** Files larger than this many bytes are not searched by grep. */
  readonly maxFileBytes: number;
  /**
   * Time, after ripgrep ends, for re-checking the shown results through the workspace gate when the search budget is
   * already spent; results not checked by then are left out (never shown unchecked) and the response says timed_out.
   */
  readonly confirmMs: number;
}

/** Defaults chosen so a large monorepo answers quickly and one result never crowds a model's context. */
export const DEFAULT_SEARCH_LIMITS: SearchLimits = Object.freeze({
  // Matches the peers' 30 s budget; a search slower than that should be narrowed, not waited for.
  timeoutMs: 30_000,
  // A thousand lines is already more than a model can use well; more would only fill its context.
  maxResults: 1_000,
  // Counting is cheap, but a pattern matching millions of lines should not scan the whole tree to say so.
  countLimit: 10_000,
  // Long enough for any hand-written line; minified bundles and data lines are cut.
  maxLineChars: 400,
  // Real patterns and globs are short; a huge one is a mistake or an attempt to exhaust the regex compiler.
  maxPatternLength: 2_000,
  // Larger files are nearly always generated data or logs; searching them costs time and rarely helps.
  maxFileBytes: 20 * 1024 * 1024,
  // Re-reading up to max_results files normally takes milliseconds; this keeps partial results of a timed-out search
  // while bounding a call at timeoutMs plus this, however many large files matched.
  confirmMs: 5_000,
});

/** Default `max_results` per action, shared with the coding toolkit so both answer the same way. */
export const SEARCH_DEFAULTS = Object.freeze({
  /** Matching lines returned by `grep` when `max_results` is not given. */
  grep: 50,
  /** Paths returned by `find` when `max_results` is not given. */
  find: 100,
});

/** Merges caller overrides over the defaults, keeping only positive finite numbers. */
export function resolveSearchLimits(overrides: Partial<SearchLimits> | undefined): SearchLimits {
  const merged: Record<string, number> = { ...DEFAULT_SEARCH_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (key in merged && typeof value === 'number' && Number.isFinite(value) && value > 0) merged[key] = value;
  }
  return Object.freeze(merged) as unknown as SearchLimits;
}
