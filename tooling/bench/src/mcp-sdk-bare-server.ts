// A bare MCP server straight on the SDK, without bough: the SDK's own stdio transport and low-level server with one
// tool that does only the reference's file work (mcp-bare-work). `v1` is the SDK the reference is built on
// (@modelcontextprotocol/sdk 1.x), `v2` the one `bough mcp` is built on (@modelcontextprotocol/server 2.x), so the
// mcp suite can tell what the SDK's stdio path costs per call apart from what bough adds. Bench use only.
// Usage: node tooling/bench/dist/mcp-sdk-bare-server.js v1|v2 DIR
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Server as ServerV2 } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { type BareRequest, type BareResponse, bareWork } from './mcp-bare-work.js';

const [sdk, root] = process.argv.slice(2);
if ((sdk !== 'v1' && sdk !== 'v2') || !root) {
  console.error('usage: mcp-sdk-bare-server v1|v2 DIR');
  process.exit(2);
}

const tools = [
  {
    name: 'bare',
    description: 'Bare file operations for the mcp bench suite.',
    inputSchema: { type: 'object' as const, properties: {} },
  },
];

/** The answer as a tool result: the response as JSON text and as structured content, like bough's. */
function result(response: BareResponse) {
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(response) }],
    structuredContent: response,
    isError: !response.success,
  };
}

const call = (args: unknown) => result(bareWork(root, args as BareRequest));

if (sdk === 'v1') {
  const server = new ServerV1({ name: 'bench-bare-v1', version: '0.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => call(request.params.arguments));
  await server.connect(new StdioServerTransport());
} else {
  serveStdio(
    () => {
      const server = new ServerV2({ name: 'bench-bare-v2', version: '0.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', async () => ({ tools }));
      server.setRequestHandler('tools/call', async (request) => call(request.params.arguments));
      return server;
    },
    { onerror: () => {} },
  );
}
