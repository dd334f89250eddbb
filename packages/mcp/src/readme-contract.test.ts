// Keeps the README honest: every failure code the sources can return and every limit is documented there.
import { describeReadmeContract } from '@bough/test-utils';
import { McpErrorCode } from './errors.js';
import { DEFAULT_MCP_LIMITS } from './limits.js';
import { McpRootErrorCode } from './roots.js';

describeReadmeContract(import.meta.dirname, DEFAULT_MCP_LIMITS, {
  codes: [...Object.values(McpErrorCode), ...Object.values(McpRootErrorCode)],
});
