// Keeps the README honest: it lists exactly the exported failure-code table and every limit.
import { describeReadmeContract } from '@bough/test-utils';
import { CODE_CHECK_ERROR_CODES } from './errors.js';
import { CODE_CHECK_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, CODE_CHECK_LIMITS, { table: CODE_CHECK_ERROR_CODES });
