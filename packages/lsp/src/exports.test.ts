import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_LANGUAGE_SERVERS",
      "DEFAULT_LSP_LIMITS",
      "LSP_ERROR_CODES",
      "LSP_LIMITS",
      "LspClient",
      "mergeServers",
      "resolveLspLimits",
      "serverFor",
    ]
  `);
});
