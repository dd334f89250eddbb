import { ConfigurationError } from '@bough/core';
import { DEFAULT_MCP_LIMITS } from './limits.js';

/** Prefix every proxied tool name starts with; it marks a tool as owned by an MCP registration. */
export const MCP_TOOL_PREFIX = 'mcp__';

function sanitise(part: string): string {
  return part
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * The model-facing name of a remote tool: `mcp__{server}__{tool}`, lower-cased, with anything outside `[a-z0-9_]`
 * turned into `_`. Throws a {@link ConfigurationError} when the result is empty or longer than `maxLength`, because
 * silently cutting a name could make two tools look alike.
 */
export function mcpToolName(server: string, tool: string, maxLength = DEFAULT_MCP_LIMITS.maxToolNameLength): string {
  const alias = sanitise(server);
  const base = sanitise(tool);
  if (alias === '')
    throw new ConfigurationError(`MCP server alias ${JSON.stringify(server)} has no usable characters.`);
  if (base === '') throw new ConfigurationError(`MCP tool name ${JSON.stringify(tool)} has no usable characters.`);
  const name = `${MCP_TOOL_PREFIX}${alias}__${base}`;
  if (name.length > maxLength) {
    throw new ConfigurationError(
      `The registered name ${name} for MCP tool ${JSON.stringify(tool)} is ${name.length} characters; the limit is ${maxLength}. Use a shorter server alias.`,
    );
  }
  return name;
}
