import { ConfigurationError, errorMessage } from '@bough/core';

/** The install command named when the client SDK is missing; the range is the one package.json declares. */
export const CLIENT_INSTALL = 'npm install @modelcontextprotocol/client@^2.4.0';

/** What the client side needs of the MCP client SDK at run time. */
export interface ClientSdk {
  readonly Client: typeof import('@modelcontextprotocol/client').Client;
  readonly SdkError: typeof import('@modelcontextprotocol/client').SdkError;
  readonly SdkErrorCode: typeof import('@modelcontextprotocol/client').SdkErrorCode;
  readonly StdioClientTransport: typeof import('@modelcontextprotocol/client/stdio').StdioClientTransport;
}

let loaded: Promise<ClientSdk> | undefined;

/**
 * Loads `@modelcontextprotocol/client` on first use. It is an optional peer dependency: only registering a remote
 * server's tools needs it, so serving never loads it. When it cannot be loaded, the registration fails with a
 * `ConfigurationError` (code `mcp_client_missing`) that names the install command.
 */
export function loadClientSdk(): Promise<ClientSdk> {
  loaded ??= Promise.all([import('@modelcontextprotocol/client'), import('@modelcontextprotocol/client/stdio')]).then(
    ([main, stdio]) => ({
      Client: main.Client,
      SdkError: main.SdkError,
      SdkErrorCode: main.SdkErrorCode,
      StdioClientTransport: stdio.StdioClientTransport,
    }),
    (error: unknown) => {
      loaded = undefined;
      throw new ConfigurationError(
        `Registering a remote MCP server's tools needs the MCP client SDK, which could not be loaded ` +
          `(${errorMessage(error)}). Install it next to @bough/mcp: ${CLIENT_INSTALL}`,
        { code: 'mcp_client_missing', cause: error },
      );
    },
  );
  return loaded;
}
