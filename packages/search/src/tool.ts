import { defineTool, type Provider, statelessProvider, type Tool } from '@bough/core';
import { searchDescription } from './description.js';
import { handleSearch, requestSchemaFor, type SearchOptions } from './handle-search.js';
import { resolveSearchLimits } from './limits.js';
import { searchModelText, searchSummary } from './render.js';
import { type SearchRequest, SearchResponse } from './schema.js';
import { searchTouches } from './touches.js';

/**
 * Builds the frozen `search` tool for one workspace; the handler gets the call's abort signal. Limits are resolved
 * here, once: a bad override throws a `ConfigurationError` naming the key.
 */
export function createSearchTool(options: SearchOptions): Tool<SearchRequest, SearchResponse> {
  const limits = resolveSearchLimits(options.limits);
  const request = requestSchemaFor(limits);
  return defineTool({
    name: 'search',
    // The description states the limits this tool enforces, also when they were configured.
    description: searchDescription(limits),
    request,
    response: SearchResponse,
    scope: 'stateless',
    annotations: { readOnlyHint: true, openWorldHint: false },
    touches: searchTouches,
    toModelText: searchModelText,
    summarize: searchSummary,
    handler: (request, context) =>
      handleSearch(request, { ...options, limits, signal: context.signal, parsedBy: context.parsedBy }),
  });
}

/** A stateless provider handing out the `search` tool, shared unchanged by cloned branches. */
export function searchProvider(options: SearchOptions): Provider {
  return statelessProvider('search', () => [createSearchTool(options)]);
}
