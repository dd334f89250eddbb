// Keeps the README honest: it lists exactly the exported failure-code table and every limit.
import { describeReadmeContract } from '@bough/test-utils';
import { WORKSPACE_ERROR_CODES } from './errors.js';
import { WORKSPACE_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, WORKSPACE_LIMITS, { table: WORKSPACE_ERROR_CODES });
