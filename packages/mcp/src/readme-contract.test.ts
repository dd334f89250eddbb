// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { describeReadmeContract } from '@bough/test-utils';
import { MCP_ERROR_CODES } from './errors.js';
import { DEFAULT_MCP_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_MCP_LIMITS, { table: MCP_ERROR_CODES, limitsTable: true });
