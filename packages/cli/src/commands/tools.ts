import { toolJsonSchema } from '@bough/core';
import { flag, has, type ParsedArgs } from '../args.js';
import type { CliIO } from '../output.js';
import { standaloneRegistry, toolkitBranch, toolList, workspaceRoot } from '../toolset.js';

/** `bough tools [--toolkit] [--json]`: every tool with its description and JSON Schema. */
export async function toolsCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const root = workspaceRoot(flag(args, 'workspace'), io.cwd);
  const only = toolList(flag(args, 'tools'));
  const tools = has(args, 'toolkit')
    ? toolkitBranch(root, only ? { tools: only } : {}).tools
    : standaloneRegistry(root, only).list();
  if (has(args, 'json')) {
    const listing = tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: toolJsonSchema(tool),
    }));
    io.stdout(`${JSON.stringify(listing, null, 2)}\n`);
    return 0;
  }
  for (const tool of tools) {
    io.stdout(`${tool.name}\n${indent(tool.description)}\n  schema: ${JSON.stringify(toolJsonSchema(tool))}\n\n`);
  }
  return 0;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
