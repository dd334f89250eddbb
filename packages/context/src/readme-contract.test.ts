// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { describeReadmeContract } from '@bough/test-utils';
import { CONTEXT_ERROR_CODES } from './errors.js';
import { DEFAULT_CONTEXT_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_CONTEXT_LIMITS, { table: CONTEXT_ERROR_CODES, limitsTable: true });
