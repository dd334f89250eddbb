export { SEARCH_DESCRIPTION } from './description.js';
export { handleSearch, type SearchCallOptions, type SearchOptions } from './handle-search.js';
export { DEFAULT_SEARCH_LIMITS, resolveSearchLimits, SEARCH_DEFAULTS, type SearchLimits } from './limits.js';
/** The ripgrep exclusion flags for a protected-name policy, exactly as grep and find pass them. */
export { protectedGlobArgs } from './protected-globs.js';
export {
  makeSearchRequest,
  SearchFailure,
  SearchRequest,
  SearchResponse,
  SearchResult,
  SearchSkipped,
} from './schema.js';
export { createSearchTool, searchProvider } from './tool.js';
