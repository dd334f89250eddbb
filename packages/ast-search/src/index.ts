/** The failure-code table (`error_code` of every failure is one of these). */
export { AST_SEARCH_ERROR_CODES, type AstSearchErrorCode } from './errors.js';
/** The pure ast_search handler and its options. */
export { type AstSearchOptions, handleAstSearch } from './handle-ast-search.js';
/** Supported languages and how each is parsed. */
export { AST_SEARCH_LANGUAGES, type AstSearchLanguage, LANGUAGE_INFO, type LanguageInfo } from './languages.js';
/** Limits of the tool and their defaults. */
export {
  AST_SEARCH_LIMITS,
  type AstSearchLimits,
  DEFAULT_AST_SEARCH_LIMITS,
  resolveAstSearchLimits,
} from './limits.js';
/** The cache of parsed trees kept between calls. */
export { AstParseCache, type CachedSource, type FileStamp } from './parse-cache.js';
/** Request and response schemas (zod), also usable as types. */
export {
  AstSearchFailure,
  type AstSearchInput,
  AstSearchMatch,
  AstSearchRequest,
  AstSearchResponse,
  AstSearchSuccess,
} from './schema.js';
/** Tool factory and provider. */
export { type AstSearchToolOptions, astSearchProvider, createAstSearchTool } from './tool.js';
