import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "AI_SDK_ERROR_CODES",
      "AI_SDK_LIMITS",
      "AiSdkChatModel",
      "AiSdkChatModelError",
      "DEFAULT_AI_SDK_LIMITS",
      "toAiSdkTool",
      "toAiSdkTools",
    ]
  `);
});
