import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "COMPACTION_PREFIX",
      "CONTEXT_DESCRIPTION",
      "CONTEXT_ERROR_CODES",
      "CONTEXT_GUIDANCE",
      "CONTEXT_LIMITS",
      "ContextRequest",
      "ContextResponse",
      "DEFAULT_CONTEXT_LIMITS",
      "SUMMARY_INSTRUCTION",
      "TOKEN_COUNT_LONG_RUN_CHARS",
      "activeTokenCount",
      "contextDescription",
      "contextProvider",
      "countTokens",
      "createContextTool",
      "handleContext",
      "messageTokens",
    ]
  `);
});
