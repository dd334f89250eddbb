// Keeps the README honest: it lists exactly the exported failure-code table and every limit.
import { describeReadmeContract } from '@bough/test-utils';
import { PROCESS_ERROR_CODES } from './failure.js';
import { PROCESS_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, PROCESS_LIMITS, { table: PROCESS_ERROR_CODES });
