// Keeps the README honest: it lists exactly the exported failure-code table and every limit with its default.
import { describeReadmeContract } from '@bough/test-utils';
import { LSP_ERROR_CODES } from './errors.js';
import { LSP_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, LSP_LIMITS, { table: LSP_ERROR_CODES, limitsTable: true });
