import { defineTool, type Provider, statelessProvider, type Tool } from '@bough/core';
import { type AstSearchOptions, handleAstSearch } from './handle-ast-search.js';
import { resolveAstSearchLimits } from './limits.js';
import { astSearchModelText, astSearchSummary } from './render.js';
import { AstSearchRequest, AstSearchResponse } from './schema.js';
import { astSearchTouches } from './touches.js';

/** Options of {@link createAstSearchTool}: the workspace root and optional limit overrides. */
export type AstSearchToolOptions = Omit<AstSearchOptions, 'signal'>;

const DESCRIPTION =
  'Structural code search with ast-grep: finds code by syntax tree shape, not text. Use it for calls, definitions or ' +
  'constructs regardless of formatting, e.g. pattern "requests.get($URL, $$$)" (lang python) or "fmt.Println($$$A)" ' +
  '(lang go). $NAME matches one node, $$$ any sequence. Directories are searched recursively, honouring .gitignore, ' +
  'only in files of the chosen language. success is true when the search ran: status "matches" lists file/line/col, ' +
  '"ok" means nothing matched; success false (status "error") explains a bad pattern or path — fix the pattern so it ' +
  'is valid code of that language, or use search (grep) for text.';

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
    handler: (request, context) => handleAstSearch(request, { ...options, limits, signal: context.signal }),
  });
}

/** A stateless provider handing out the `ast_search` tool. */
export function astSearchProvider(options: AstSearchToolOptions): Provider {
  return statelessProvider('ast_search', () => [createAstSearchTool(options)]);
}
