// Keeps the README honest: it lists exactly the exported failure-code table and every limit.
import { describeReadmeContract } from '@bough/test-utils';
import { EDITOR_ERROR_CODES } from './errors.js';
import { EDITOR_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, EDITOR_LIMITS, { table: EDITOR_ERROR_CODES });
