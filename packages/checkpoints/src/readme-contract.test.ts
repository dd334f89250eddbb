// Keeps the README honest: it lists exactly the exported failure-code table and every limit.
import { describeReadmeContract } from '@bough/test-utils';
import { CHECKPOINTS_ERROR_CODES } from './errors.js';
import { CHECKPOINTS_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, CHECKPOINTS_LIMITS, { table: CHECKPOINTS_ERROR_CODES });
