import { ConfigurationError, errorMessage } from '@bough/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** How to start a local MCP server process that speaks MCP over its stdin/stdout. */
export interface McpStdioOptions {
  readonly command: string;
  readonly args?: readonly string[];
  /** Environment of the server process; by default the SDK passes only a small safe set (PATH, HOME, …). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** What to do with the server's stderr (default: 'inherit'). */
  readonly stderr?: 'inherit' | 'ignore' | 'pipe';
}

/** A connected client, or what to connect to: a stdio command or any SDK transport. */
export type McpClientSource = Client | Transport | McpStdioOptions;

/** A live connection and whether this package opened it (and therefore must close it). */
export interface Connection {
  readonly client: Client;
  readonly owned: boolean;
  /** True once the transport reported that it closed. */
  isClosed(): boolean;
}

function isTransport(value: object): value is Transport {
  const candidate = value as Partial<Transport>;
  return typeof candidate.start === 'function' && typeof candidate.send === 'function';
}

/** Opens (or adopts) a client and tracks when its connection dies. */
export async function connect(alias: string, source: McpClientSource, version: string): Promise<Connection> {
  let closed = false;
  const track = (client: Client) => {
    const previous = client.onclose;
    client.onclose = () => {
      closed = true;
      previous?.();
    };
  };
  if (source instanceof Client) {
    track(source);
    return { client: source, owned: false, isClosed: () => closed || source.transport === undefined };
  }
  const transport = isTransport(source)
    ? source
    : new StdioClientTransport({
        command: source.command,
        ...(source.args ? { args: [...source.args] } : {}),
        ...(source.env ? { env: { ...source.env } } : {}),
        ...(source.cwd ? { cwd: source.cwd } : {}),
        ...(source.stderr ? { stderr: source.stderr } : {}),
      });
  const client = new Client({ name: 'bough', version });
  track(client);
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => {});
    throw new ConfigurationError(`Could not connect to MCP server ${alias}: ${errorMessage(error)}`);
  }
  return { client, owned: true, isClosed: () => closed };
}
