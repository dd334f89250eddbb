// Keeps the README honest: it lists exactly the exported failure-code table and every limit.
import { describeReadmeContract } from '@bough/test-utils';
import { NAV_ERROR_CODES } from './errors.js';
import { NAV_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, NAV_LIMITS, { table: NAV_ERROR_CODES });
