import type { Client, Transport } from '@modelcontextprotocol/client';

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
