// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { describeReadmeContract } from '@bough/test-utils';
import { CODING_ERROR_CODES } from './errors.js';
import { DEFAULT_CODING_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_CODING_LIMITS, { table: CODING_ERROR_CODES, limitsTable: true });
