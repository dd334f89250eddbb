export type {
  McpClient,
  McpClientSource,
  McpRemoteProgress,
  McpRemoteTool,
  McpStdioOptions,
} from './client-source.js';
export { MCP_ERROR_CODES, type McpErrorCode, type McpFailure } from './errors.js';
export {
  generateToken,
  MCP_HTTP_PATH,
  type McpHttpServer,
  type ServeHttpOptions,
  serveHttp,
} from './http.js';
export { DEFAULT_MCP_LIMITS, MCP_LIMITS, type McpLimits } from './limits.js';
export { MCP_TOOL_PREFIX, mcpToolName } from './names.js';
export { type McpRegistration, type McpServerConfig, type RegisterMcpOptions, registerMcpServer } from './register.js';
export { checkRoot, type RootCheck, RootRouter, type RouteTarget } from './roots.js';
export {
  createMcpServer,
  type McpServerOptions,
  type RegistrySource,
  type RootsUpdate,
  type ServedRoots,
} from './server.js';
export { type ServeStdioOptions, serveStdio } from './stdio.js';
