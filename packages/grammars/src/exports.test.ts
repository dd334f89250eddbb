import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DYNAMIC_GRAMMARS",
      "GRAMMAR_PACKAGES",
      "loadAstGrep",
    ]
  `);
});
