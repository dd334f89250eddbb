import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_SEARCH_LIMITS",
      "SEARCH_DESCRIPTION",
      "SEARCH_ERROR_CODES",
      "SEARCH_LIMITS",
      "SearchFailure",
      "SearchRequest",
      "SearchResponse",
      "SearchResult",
      "SearchSkipped",
      "createSearchTool",
      "handleSearch",
      "makeSearchRequest",
      "protectedGlobArgs",
      "resolveSearchLimits",
      "searchProvider",
    ]
  `);
});
