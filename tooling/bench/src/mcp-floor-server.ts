// The floor of bough's MCP path, for the mcp suite's floor rows: the same stdio transport, SDK v2 server,
// @bough/mcp dispatch and core registry as `bough mcp`, serving bare tools that do only the file work the reference
// server does (read, write to a temp file and rename, replace text, list), with none of the coding toolkit's
// guarantees (workspace gate, read-before-edit state, policy). Never a real server: bench use only.
// Usage: node tooling/bench/dist/mcp-floor-server.js DIR
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineTool, ToolRegistry } from '@bough/core';
import { serveStdio } from '@bough/mcp';
import { z } from 'zod';

const root = process.argv[2];
if (!root) {
  console.error('usage: mcp-floor-server DIR');
  process.exit(2);
}

let temps = 0;
/** What the reference does for an existing file: the new content in a temp file beside it, then a rename. */
function replace(path: string, content: string): void {
  const temp = `${path}.${process.pid}-${temps++}.tmp`;
  writeFileSync(temp, content);
  renameSync(temp, path);
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
    handler: async ({ action, path: rel, content, old_string, new_string }) => {
      const path = join(root, rel);
      if (action === 'read') return { success: true, content: readFileSync(path, 'utf8') };
      if (action === 'list') return { success: true, entries: readdirSync(path).sort() };
      if (action === 'write') {
        replace(path, content ?? '');
        return { success: true, message: `Wrote ${rel}.` };
      }
      const text = readFileSync(path, 'utf8');
      if (old_string === undefined || !text.includes(old_string))
        return { success: false, error: 'no match', error_code: 'no_match' };
      replace(path, text.replace(old_string, new_string ?? ''));
      return { success: true, message: `Edited ${rel}.` };
    },
  }),
);
await serveStdio(registry, { name: 'bough-bench-floor', version: '0.0.0' });
