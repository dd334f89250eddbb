// Keeps the README honest: it lists exactly the exported failure-code table and every limit.
import { describeReadmeContract } from '@bough/test-utils';
import { SEARCH_ERROR_CODES } from './errors.js';
import { SEARCH_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, SEARCH_LIMITS, { table: SEARCH_ERROR_CODES });
