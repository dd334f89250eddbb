export { SEARCH_DESCRIPTION } from './description.js';
/** The failure-code table (`error_code` of every failure is one of these). */
export { SEARCH_ERROR_CODES, type SearchErrorCode } from './errors.js';
export { handleSearch, type SearchCallOptions, type SearchOptions } from './handle-search.js';
export { DEFAULT_SEARCH_LIMITS, resolveSearchLimits, SEARCH_LIMITS, type SearchLimits } from './limits.js';
/** The ripgrep exclusion flags for a protected-name policy, exactly as grep and find pass them. */
export { protectedGlobArgs } from './protected-globs.js';
export {
  makeSearchRequest,
  SearchFailure,
  type SearchInput,
  SearchRequest,
  SearchResponse,
  type SearchResponseFor,
  SearchResult,
  SearchSkipped,
  type SearchSuccessByAction,
} from './schema.js';
export { createSearchTool, searchProvider } from './tool.js';
