import { serveStdio } from '@bough/mcp';
import { flag, has, type ParsedArgs } from '../args.js';
import type { CliIO } from '../output.js';
import { standaloneRegistry, toolkitBranch, toolList, workspaceRoot } from '../toolset.js';
import { VERSION } from '../version.js';

/**
 * `bough mcp`: serves the coding toolkit (or `--standalone` tools, or a `--tools` subset) over MCP on stdio.
 * The toolkit is bound to one branch for the whole session, so its read-before-edit guard spans the session.
 */
export async function mcpCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const root = workspaceRoot(flag(args, 'workspace'), io.cwd);
  const only = toolList(flag(args, 'tools'));
  const registry = has(args, 'standalone')
    ? standaloneRegistry(root, only)
    : toolkitBranch(root, only ? { tools: only } : {}).registry;
  io.stderr(`bough mcp: serving ${registry.names().join(', ')} for ${root}\n`);
  await serveStdio(registry, {
    name: 'bough',
    version: VERSION,
    instructions: `Tools for working on the files under ${root}. Read a file before editing it.`,
  });
  return 0;
}
