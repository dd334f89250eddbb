// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { describeReadmeTables } from '@bough/test-utils';
import { MCP_ERROR_CODES } from './errors.js';
import { DEFAULT_MCP_LIMITS } from './limits.js';

describeReadmeTables(import.meta.dirname, { codes: MCP_ERROR_CODES, limits: DEFAULT_MCP_LIMITS });
