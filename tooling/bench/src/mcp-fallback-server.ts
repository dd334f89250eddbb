// A stand-in for `bough mcp --workspace DIR` while the CLI is being written: serves the standalone tools that are
// available over stdio with @bough/mcp. Usage: node tooling/bench/dist/mcp-fallback-server.js --workspace DIR
import { type Provider, type Tool, ToolRegistry } from '@bough/core';
import { serveStdio } from '@bough/mcp';

const at = process.argv.indexOf('--workspace');
const workspaceRoot = at > 0 ? process.argv[at + 1] : undefined;
if (!workspaceRoot) {
  console.error('usage: mcp-fallback-server --workspace DIR');
  process.exit(2);
}

const sources: Array<[string, string]> = [
  ['@bough/reader', 'readerProvider'],
  ['@bough/editor', 'editorProvider'],
  ['@bough/search', 'searchProvider'],
  ['@bough/bash', 'createBashTools'],
];
const registry = new ToolRegistry();
for (const [specifier, name] of sources) {
  try {
    const factory = ((await import(specifier)) as Record<string, unknown>)[name];
    if (typeof factory !== 'function') console.error(`${specifier} has no ${name}; its tool is not served`);
    else if (name === 'createBashTools')
      registry.register([...(factory as (o: object) => { tools: Tool[] })({ workspaceRoot }).tools]);
    else registry.register((factory as (o: object) => Provider)({ workspaceRoot }));
  } catch (error) {
    console.error(`${specifier} could not be loaded: ${(error as Error).message}`);
  }
}
await serveStdio(registry, { name: 'bough-bench', version: '0.0.0' });
