export type { McpClientSource, McpStdioOptions } from './internal/connect.js';
export { McpErrorCode } from './internal/proxy-tool.js';
export { DEFAULT_MCP_LIMITS, type McpLimits } from './limits.js';
export { MCP_TOOL_PREFIX, mcpToolName } from './names.js';
export { type McpRegistration, type McpServerConfig, type RegisterMcpOptions, registerMcpServer } from './register.js';
export {
  createMcpServer,
  type McpServerOptions,
  type RegistrySource,
  type ServeStdioOptions,
  serveStdio,
} from './server.js';
