// Keeps the README honest: it lists exactly the exported failure-code table and every limit.
import { describeReadmeContract } from '@bough/test-utils';
import { BASH_ERROR_CODES } from './errors.js';
import { BASH_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, BASH_LIMITS, { table: BASH_ERROR_CODES });
