import { ConfigurationError, errorMessage, statelessProvider, type Tool, type ToolRegistry } from '@bough/core';
import type { McpClient, McpClientSource, McpRemoteTool as McpTool } from './client-source.js';
import { type Connection, connect } from './internal/connect.js';
import { proxyTool } from './internal/proxy-tool.js';
import { MCP_LIMITS, type McpLimits } from './limits.js';
import { mcpToolName } from './names.js';

// Proxies are registered through a provider with this name prefix, so provenance tells them apart from local tools.
const PROVIDER_PREFIX = 'mcp:';

// Reported to servers during initialisation; kept in step with package.json by hand.
const CLIENT_VERSION = '0.0.0';

/** Which server to register: an alias (used in tool names) and a client or how to reach the server. */
export interface McpServerConfig {
  /** Short alias; tools are registered as `mcp__{server}__{tool}`. */
  readonly server: string;
  /** A connected SDK `Client` (left open on close), an SDK transport, or a stdio command to spawn. */
  readonly client: McpClientSource;
}

/** Options for {@link registerMcpServer}. */
export interface RegisterMcpOptions {
  /** Remote tool names (as the server spells them) to register; all advertised tools when omitted. */
  readonly tools?: readonly string[];
  /** Replace tools an earlier MCP registration added under the same names; a local tool is never replaced. */
  readonly update?: boolean;
  /** Overrides for {@link DEFAULT_MCP_LIMITS}; a bad one throws a `ConfigurationError` naming the key. */
  readonly limits?: Partial<McpLimits>;
}

/** The result of {@link registerMcpServer}: what was registered, and how to let go of it. */
export interface McpRegistration {
  /** Registered model-facing names, in the server's order. */
  readonly names: readonly string[];
  /** Model-facing name → the remote tool's own name. */
  readonly remoteNames: ReadonlyMap<string, string>;
  /** The client behind the tools (the SDK `Client` this package opened, or the one it was given). */
  readonly client: McpClient;
  /** Removes the registered tools and closes the connection if this registration opened it. */
  close(): Promise<void>;
}

async function listAll(connection: Connection, alias: string, limits: McpLimits): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < limits.maxListPages; page++) {
    const result = await connection.client.listTools(cursor ? { cursor } : undefined, {
      timeout: limits.requestTimeoutMs,
    });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (!cursor) return tools;
  }
  throw new ConfigurationError(`MCP server ${alias} kept paging tools/list past ${limits.maxListPages} pages.`);
}

function isMcpProxy(registry: ToolRegistry, name: string): boolean {
  return registry.providerOf(name)?.name.startsWith(PROVIDER_PREFIX) === true;
}

function plan(
  registry: ToolRegistry,
  alias: string,
  remote: readonly McpTool[],
  options: RegisterMcpOptions,
  limits: McpLimits,
): { remote: McpTool; name: string }[] {
  const wanted = options.tools ? [...new Set(options.tools)] : remote.map((tool) => tool.name);
  const byName = new Map(remote.map((tool) => [tool.name, tool]));
  const missing = wanted.filter((name) => !byName.has(name));
  if (missing.length > 0) {
    throw new ConfigurationError(
      `MCP server ${alias} does not offer ${missing.map((name) => JSON.stringify(name)).join(', ')}; it offers ${
        remote.map((tool) => tool.name).join(', ') || '(no tools)'
      }. Nothing was registered.`,
    );
  }
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const rows: { remote: McpTool; name: string }[] = [];
  for (const remoteName of wanted) {
    let name: string;
    try {
      name = mcpToolName(alias, remoteName, limits.maxToolNameLength);
    } catch (error) {
      problems.push(errorMessage(error));
      continue;
    }
    const twin = seen.get(name);
    if (twin !== undefined)
      problems.push(`${JSON.stringify(twin)} and ${JSON.stringify(remoteName)} both become ${name}`);
    else if (registry.has(name) && !(options.update && isMcpProxy(registry, name))) {
      problems.push(`${name} is already registered`);
    }
    seen.set(name, remoteName);
    rows.push({ remote: byName.get(remoteName)!, name });
  }
  if (problems.length > 0) {
    throw new ConfigurationError(
      `Cannot register MCP server ${alias}: ${problems.join('; ')}. Nothing was registered.`,
    );
  }
  return rows;
}

/**
 * Connects to an MCP server, lists its tools and registers each (or the requested subset) as an ordinary Tool named
 * `mcp__{server}__{tool}`, advertising the remote input schema unchanged. All or nothing: a missing tool, an unusable
 * name or a collision registers none and throws a {@link ConfigurationError} naming them. Calls fail closed: remote
 * errors become `remote_error` values and a dead connection `remote_unavailable`.
 */
export async function registerMcpServer(
  registry: ToolRegistry,
  config: McpServerConfig,
  options: RegisterMcpOptions = {},
): Promise<McpRegistration> {
  const limits: McpLimits = MCP_LIMITS.resolve(options.limits);
  const alias = config.server;
  const connection = await connect(alias, config.client, CLIENT_VERSION);
  const release = async () => {
    if (connection.owned) await connection.client.close().catch(() => {});
  };
  let rows: { remote: McpTool; name: string }[];
  let tools: Tool[];
  try {
    const remote = await listAll(connection, alias, limits).catch((error: unknown) => {
      if (error instanceof ConfigurationError) throw error;
      throw new ConfigurationError(`MCP server ${alias} did not list its tools: ${errorMessage(error)}`);
    });
    rows = plan(registry, alias, remote, options, limits);
    tools = rows.map((row) => proxyTool(connection, alias, row.name, row.remote, limits));
    registry.register(statelessProvider(`${PROVIDER_PREFIX}${alias}`, tools), { update: options.update === true });
  } catch (error) {
    await release();
    throw error;
  }
  return {
    names: rows.map((row) => row.name),
    remoteNames: new Map(rows.map((row) => [row.name, row.remote.name])),
    client: connection.client,
    async close() {
      for (const tool of tools) if (registry.get(tool.name) === tool) registry.remove(tool.name);
      await release();
    },
  };
}
