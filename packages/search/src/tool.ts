import { defineTool, type Provider, statelessProvider, type Tool } from '@branchkit/core';
import { SEARCH_DESCRIPTION } from './description.js';
import { handleSearch, type SearchOptions } from './handle-search.js';
import { SearchRequest, SearchResponse } from './schema.js';

/** Builds the frozen `search` tool for one workspace; the handler gets the call's abort signal. */
export function createSearchTool(options: SearchOptions): Tool<SearchRequest, SearchResponse> {
  return defineTool({
    name: 'search',
    description: SEARCH_DESCRIPTION,
    request: SearchRequest,
    response: SearchResponse,
    scope: 'stateless',
    annotations: { readOnlyHint: true, openWorldHint: false },
    handler: (request, context) => handleSearch(request, { ...options, signal: context.signal }),
  });
}

/** A stateless provider handing out the `search` tool, shared unchanged by cloned branches. */
export function searchProvider(options: SearchOptions): Provider {
  return statelessProvider('search', () => [createSearchTool(options)]);
}
