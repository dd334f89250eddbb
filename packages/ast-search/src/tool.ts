import { defineTool, type Provider, statelessProvider, type Tool } from '@bough/core';
import { type AstSearchOptions, handleAstSearch } from './handle-ast-search.js';
import { resolveAstSearchLimits } from './limits.js';
import { astSearchModelText, astSearchSummary } from './render.js';
import { AstSearchRequest, AstSearchResponse } from './schema.js';
import { astSearchTouches } from './touches.js';

/** Options of {@link createAstSearchTool}: the workspace root and optional limit overrides. */
export type AstSearchToolOptions = Omit<AstSearchOptions, 'signal'>;

// Lean on purpose (it is sent with every request); a bad pattern's error says how to fix it.
const DESCRIPTION =
  'Find code by syntax-tree shape with ast-grep: pattern is code of `lang` where $NAME matches one node and $$$ ' +
  'any sequence, e.g. "requests.get($URL, $$$)". Use search for plain text.';

/** Builds the `ast_search` tool bound to one workspace root. */
export function createAstSearchTool(options: AstSearchToolOptions): Tool<AstSearchRequest, AstSearchResponse> {
  const limits = resolveAstSearchLimits(options.limits); // once per build; a bad override throws here
  return defineTool({
    name: 'ast_search',
    description: DESCRIPTION,
    request: AstSearchRequest,
    response: AstSearchResponse,
    scope: 'stateless',
    annotations: { readOnlyHint: true },
    touches: astSearchTouches,
    toModelText: astSearchModelText,
    summarize: astSearchSummary,
    handler: (request, context) =>
      handleAstSearch(request, { ...options, limits, signal: context.signal, parsedBy: context.parsedBy }),
  });
}

/** A stateless provider handing out the `ast_search` tool. */
export function astSearchProvider(options: AstSearchToolOptions): Provider {
  return statelessProvider('ast_search', () => [createAstSearchTool(options)]);
}
