import { defineTool, type Provider, statelessProvider, type Tool } from '@bough/core';
import { SEARCH_DESCRIPTION } from './description.js';
import { handleSearch, requestSchemaFor, type SearchOptions } from './handle-search.js';
import { DEFAULT_SEARCH_LIMITS, resolveSearchLimits } from './limits.js';
import { type SearchRequest, SearchResponse } from './schema.js';

/** Builds the frozen `search` tool for one workspace; the handler gets the call's abort signal. */
export function createSearchTool(options: SearchOptions): Tool<SearchRequest, SearchResponse> {
  const limits = resolveSearchLimits(options.limits);
  const request = requestSchemaFor(limits);
  const ceiling = request.shape.max_results.unwrap().maxValue ?? DEFAULT_SEARCH_LIMITS.maxResults;
  return defineTool({
    name: 'search',
    // The description states the ceiling this tool enforces, also when the limit was configured.
    description: SEARCH_DESCRIPTION.replace(`up to ${DEFAULT_SEARCH_LIMITS.maxResults}`, `up to ${ceiling}`),
    request,
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
