import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_MCP_LIMITS",
      "MCP_ERROR_CODES",
      "MCP_HTTP_PATH",
      "MCP_LIMITS",
      "MCP_TOOL_PREFIX",
      "RootRouter",
      "checkRoot",
      "createMcpServer",
      "generateToken",
      "mcpToolName",
      "registerMcpServer",
      "serveHttp",
      "serveStdio",
    ]
  `);
});
