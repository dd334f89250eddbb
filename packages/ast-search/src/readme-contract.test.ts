// Keeps the README honest: it lists exactly the exported failure-code table and every limit.
import { describeReadmeContract } from '@bough/test-utils';
import { AST_SEARCH_ERROR_CODES } from './errors.js';
import { AST_SEARCH_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, AST_SEARCH_LIMITS, { table: AST_SEARCH_ERROR_CODES });
