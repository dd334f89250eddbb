import { limitText } from '@bough/core';
import { DEFAULT_SEARCH_LIMITS, type SearchLimits } from './limits.js';

// Lean on purpose (it is sent with every request): what each action matches. The answer's note, count, truncated
// and skipped say what was left out and what to do; each refusal says how to fix the pattern or path.
const TEMPLATE = [
  "Search the workspace, faster than grep/find in bash; .gitignore'd files are skipped unless include_ignored.",
  'grep: lines matching the ripgrep regex `pattern`, as path:line:text. find: files matching the glob `pattern`',
  '("*.ts" matches at any depth), newest first. Default {grepResults} results for grep, {findResults} for find, up',
  'to {maxResults}.',
].join(' ');

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
