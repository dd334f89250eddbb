import { limitText } from '@bough/core';
import { DEFAULT_SEARCH_LIMITS, type SearchLimits } from './limits.js';

const TEMPLATE = [
  'Search the workspace. Prefer this over running grep or find through bash: it is faster, skips what',
  'should be skipped and never returns credentials.',
  '',
  '- action "grep": lines whose text matches `pattern` (a Rust/ripgrep regular expression; set',
  '  fixed_strings: true for literal text, case_insensitive: true to ignore case). Results are',
  '  "path:line:text", sorted by path then line; lines longer than {maxLineChars} characters are cut with a marker.',
  '  Default {grepResults} results.',
  '- action "find": files whose path matches the glob `pattern`, newest first. A glob without "/"',
  '  matches names at any depth ("*.ts" finds every .ts file); with "/" it is relative to `path`.',
  '  Default {findResults} results.',
  '',
  '`path` (default ".") narrows where to look; `include` (a glob such as "*.py") keeps only matching files.',
  'Hidden files are searched, `.git` is not. Files listed in .gitignore/.ignore are skipped unless',
  'include_ignored: true. Protected files (.env, private keys, …) are never searched or listed. Symbolic',
  'links are not followed. max_results is a positive integer up to {maxResults}.',
  '',
  '`count` is the number of matches found; when `truncated` is true only `shown` are in content — narrow',
  'the search. When `count_is_lower_bound` is true the search stopped early and there are at least that',
  'many. `skipped` counts what was left out and why (ignored by .gitignore, binary, too_large, protected);',
  'for grep these are lower bounds (skipped.lower_bound) unless exact_skips: true, which is slower.',
  'A search runs at most {timeoutMs} ms; on timeout you get the partial results with timed_out: true.',
  '',
  'Errors: invalid_pattern — fix the regex or use fixed_strings; invalid_glob — include/pattern must be a',
  'plain glob without a leading "!" (or "-" for include); invalid_request — fix the named field;',
  'outside_workspace / not_found / symlink_rejected / protected_path — search a path inside the workspace.',
].join('\n');

/** The model-facing description of a search tool built with `limits`: every number in it is the one enforced. */
export function searchDescription(limits: SearchLimits): string {
  return limitText(TEMPLATE, {
    ...limits,
    grepResults: Math.min(limits.grepResults, limits.maxResults),
    findResults: Math.min(limits.findResults, limits.maxResults),
  });
}

/** The description of a search tool with the default limits: when to use each action and how to recover. */
export const SEARCH_DESCRIPTION = searchDescription(DEFAULT_SEARCH_LIMITS);
