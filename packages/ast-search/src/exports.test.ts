import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "AST_SEARCH_ERROR_CODES",
      "AST_SEARCH_LANGUAGES",
      "AST_SEARCH_LIMITS",
      "AstParseCache",
      "AstSearchFailure",
      "AstSearchMatch",
      "AstSearchRequest",
      "AstSearchResponse",
      "AstSearchSuccess",
      "DEFAULT_AST_SEARCH_LIMITS",
      "LANGUAGE_INFO",
      "astSearchProvider",
      "createAstSearchTool",
      "handleAstSearch",
      "resolveAstSearchLimits",
    ]
  `);
});
