// The floor of bough's MCP path, for the mcp suite's floor rows: the same stdio transport, SDK v2 server,
// @bough/mcp dispatch and core registry as `bough mcp`, serving a bare tool that does only the file work the reference
// server does (mcp-bare-work), with none of the coding toolkit's guarantees (workspace gate, read-before-edit state,
// policy). Never a real server: bench use only.
// Usage: node tooling/bench/dist/mcp-floor-server.js DIR
import { defineTool, ToolRegistry } from '@bough/core';
import { serveStdio } from '@bough/mcp';
import { z } from 'zod';
import { bareWork } from './mcp-bare-work.js';

const root = process.argv[2];
if (!root) {
  console.error('usage: mcp-floor-server DIR');
  process.exit(2);
}

const registry = new ToolRegistry();
registry.register(
  defineTool({
    name: 'bare',
    description: 'Bare file operations for the floor rows of the mcp bench suite.',
    request: z.object({
      action: z.enum(['read', 'write', 'edit', 'list']),
      path: z.string(),
      content: z.string().optional(),
      old_string: z.string().optional(),
      new_string: z.string().optional(),
    }),
    handler: async (request) => bareWork(root, request),
  }),
);
await serveStdio(registry, { name: 'bough-bench-floor', version: '0.0.0' });
