import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_NAV_LIMITS",
      "NAV_ERROR_CODES",
      "NAV_LIMITS",
      "NavCache",
      "NavItem",
      "NavRequest",
      "NavResponse",
      "codeNavProvider",
      "createCodeNavTool",
      "handleCodeNav",
      "resolveNavLimits",
    ]
  `);
});
