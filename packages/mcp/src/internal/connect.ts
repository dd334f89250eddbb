import { ConfigurationError, errorMessage } from '@bough/core';
import { Client, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { McpClientSource } from '../client-source.js';

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
