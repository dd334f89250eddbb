/** The pure ast_search handler and its options. */
export { type AstSearchOptions, handleAstSearch } from './handle-ast-search.js';
/** Supported languages and how each is parsed. */
export { AST_SEARCH_LANGUAGES, type AstSearchLanguage, LANGUAGE_INFO, type LanguageInfo } from './languages.js';
/** Limits of the tool and their defaults. */
export { type AstSearchLimits, DEFAULT_AST_SEARCH_LIMITS, resolveAstSearchLimits } from './limits.js';
/** The cache of parsed trees kept between calls. */
export { AstParseCache, type CachedSource, type FileStamp } from './parse-cache.js';
/** Request and response schemas (zod), also usable as types. */
export { AstSearchMatch, AstSearchRequest, AstSearchResponse } from './schema.js';
/** Tool factory and provider. */
export { type AstSearchToolOptions, astSearchProvider, createAstSearchTool } from './tool.js';
