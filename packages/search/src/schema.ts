import { failureSchema } from '@bough/core';
import { z } from 'zod';
import { SEARCH_ERROR_CODES, type SearchFailure as SearchFailureValue } from './errors.js';
import { DEFAULT_SEARCH_LIMITS } from './limits.js';

/**
 * Builds the request schema for a given `max_results` ceiling, so a tool configured with another `maxResults` limit
 * validates (and advertises in its JSON Schema) the ceiling it really enforces.
 */
export function makeSearchRequest(
  maxResults: number = DEFAULT_SEARCH_LIMITS.maxResults,
  defaults: { readonly grep: number; readonly find: number } = {
    grep: Math.min(DEFAULT_SEARCH_LIMITS.grepResults, maxResults),
    find: Math.min(DEFAULT_SEARCH_LIMITS.findResults, maxResults),
  },
) {
  return z
    .object({
      action: z.enum(['grep', 'find']),
      pattern: z.string().min(1),
      path: z.string().optional().describe('File or directory (default: the root).'),
      include: z.string().min(1).optional().describe('Glob filter, e.g. "*.py".'),
      max_results: z
        .number()
        .int()
        .positive()
        .max(maxResults)
        .optional()
        .describe(`Results to return (default ${defaults.grep} grep, ${defaults.find} find).`),
      include_ignored: z.boolean().optional(),
      case_insensitive: z.boolean().optional(),
      fixed_strings: z.boolean().optional().describe('grep: pattern is literal text.'),
      exact_skips: z.boolean().optional().describe('grep: count skipped files exactly (slower).'),
    })
    .strict();
}

/** A grep (file contents) or find (file names) request; field names follow the ADR. */
export const SearchRequest = makeSearchRequest();

/** A validated search request. */
export type SearchRequest = z.infer<typeof SearchRequest>;
/** What a caller may pass to `handleSearch` (the schema's input type), so a plain program gets compile-time checks. */
export type SearchInput = z.input<typeof SearchRequest>;

/** What a search left out, so an empty or short answer can be read correctly. */
export const SearchSkipped = z.object({
  protected: z
    .number()
    .int()
    .describe('Matches withheld because they lie in protected files (credentials, keys) or paths the policy denies.'),
  long_lines: z.number().int().describe('Shown lines that were cut at the line-length cap.'),
  ignored_files: z
    .enum(['excluded', 'included'])
    .describe('Whether files matched by .gitignore/.ignore were left out (the default) or searched.'),
  ignored: z
    .number()
    .int()
    .describe('Files or directories left out by .gitignore/.ignore rules (a directory counts once; 0 when included).'),
  binary: z.number().int().describe('grep: binary files whose lines are not shown.'),
  too_large: z.number().int().describe('grep: files over the size limit that were not searched.'),
  protected_files: z
    .number()
    .int()
    .describe('grep: protected files (credentials, keys) left unopened; their matches are never counted.'),
  lower_bound: z
    .boolean()
    .describe(
      'True when ignored, binary, too_large and protected_files are lower bounds (grep without exact_skips, or a find whose skip log was cut short); the results themselves are complete.',
    ),
});

/** A completed search, possibly partial. */
export const SearchResult = z.object({
  success: z.literal(true),
  content: z.string().describe('grep: "path:line:text" per line; find: one path per line, newest first.'),
  count: z.number().int().describe('Total matches found (a lower bound when count_is_lower_bound is true).'),
  shown: z.number().int().describe('Lines in content.'),
  truncated: z.boolean().describe('True when more was found than is shown.'),
  count_is_lower_bound: z.boolean().describe('True when the search stopped before it had seen everything.'),
  timed_out: z.boolean().describe('True when the time budget ran out; content holds what was found by then.'),
  skipped: SearchSkipped,
  note: z.string().optional().describe('What to do next when results are empty, partial or capped.'),
});

/** A completed search. */
export type SearchResult = z.infer<typeof SearchResult>;

/** The standard failure shape: core's failure schema over {@link SEARCH_ERROR_CODES}. */
export const SearchFailure = failureSchema(SEARCH_ERROR_CODES);
/** An expected search failure; `error_code` is one of {@link SEARCH_ERROR_CODES}. */
export type SearchFailure = SearchFailureValue;

/** Either a (possibly partial) result or a typed failure. */
export const SearchResponse = z.union([SearchResult, SearchFailure]);

/** Either a (possibly partial) result or a typed failure (narrow with `success`). */
export type SearchResponse = SearchResult | SearchFailure;

/** The success of each action, by action name (grep and find answer in the same shape). */
export interface SearchSuccessByAction {
  grep: SearchResult;
  find: SearchResult;
}

/** The answer to a request with action `A`: that action's success, or a failure (narrow with `success`). */
export type SearchResponseFor<A extends SearchInput['action']> = SearchSuccessByAction[A] | SearchFailure;
