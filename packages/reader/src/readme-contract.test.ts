// Keeps the README honest: it lists exactly the exported failure-code table and every limit.
import { describeReadmeContract } from '@bough/test-utils';
import { READER_ERROR_CODES } from './errors.js';
import { READER_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, READER_LIMITS, { table: READER_ERROR_CODES });
