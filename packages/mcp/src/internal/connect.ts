import { ConfigurationError, errorMessage } from '@bough/core';
import type { Transport } from '@modelcontextprotocol/server';
import type { McpClient, McpClientSource } from '../client-source.js';
import { type ClientSdk, loadClientSdk } from './client-sdk.js';

/** A live connection and whether this package opened it (and therefore must close it). */
export interface Connection {
  readonly client: McpClient;
  readonly owned: boolean;
  /** The client SDK, loaded for this connection (its error classes tell a dead connection apart). */
  readonly sdk: ClientSdk;
  /** True once the transport reported that it closed. */
  isClosed(): boolean;
}

/** A client by its shape, so a `Client` from another copy of the SDK counts too. */
function isClient(value: McpClientSource): value is McpClient {
  const candidate = value as Partial<McpClient>;
  return typeof candidate.callTool === 'function' && typeof candidate.listTools === 'function';
}

function isTransport(value: McpClientSource): value is Transport {
  const candidate = value as Partial<Transport>;
  return typeof candidate.start === 'function' && typeof candidate.send === 'function';
}

/**
 * Opens (or adopts) a client and tracks when its connection dies. Loads the client SDK first; without it this throws
 * the `ConfigurationError` of {@link loadClientSdk}.
 */
export async function connect(alias: string, source: McpClientSource, version: string): Promise<Connection> {
  const sdk = await loadClientSdk();
  const { Client, StdioClientTransport } = sdk;
  let closed = false;
  const track = (client: McpClient) => {
    const previous = client.onclose;
    client.onclose = () => {
      closed = true;
      previous?.();
    };
  };
  if (isClient(source)) {
    track(source);
    return { client: source, owned: false, sdk, isClosed: () => closed || source.transport === undefined };
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
  return { client, owned: true, sdk, isClosed: () => closed };
}
