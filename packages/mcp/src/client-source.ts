import type { Transport } from '@modelcontextprotocol/server';

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

/** One tool as a remote server lists it (the fields of an MCP `Tool` this package reads). */
export interface McpRemoteTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema: object;
  readonly annotations?: object | undefined;
}

/** A progress report of a remote call, as the client SDK hands it on. */
export interface McpRemoteProgress {
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}

/**
 * The part of the MCP SDK's `Client` (package `@modelcontextprotocol/client`) this package uses; a connected SDK
 * `Client` is one. Spelled out here because the client SDK is an optional peer dependency: a program that only
 * serves type-checks and installs without it.
 */
export interface McpClient {
  listTools(
    params?: { cursor?: string },
    options?: { timeout?: number },
  ): Promise<{ readonly tools: readonly McpRemoteTool[]; readonly nextCursor?: string | undefined }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options?: { signal?: AbortSignal; timeout?: number; onprogress?: (progress: McpRemoteProgress) => void },
  ): Promise<{
    readonly content?: unknown;
    readonly structuredContent?: unknown;
    readonly isError?: unknown;
    readonly toolResult?: unknown;
  }>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  /** The SDK client's transport; undefined once it is closed. */
  readonly transport?: unknown;
}

/** A connected client, or what to connect to: a stdio command or any SDK transport. */
export type McpClientSource = McpClient | Transport | McpStdioOptions;
