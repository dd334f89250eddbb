// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { describeReadmeContract } from '@bough/test-utils';
import { MESSENGER_ERROR_CODES } from './errors.js';
import { DEFAULT_MESSENGER_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_MESSENGER_LIMITS, {
  table: MESSENGER_ERROR_CODES,
  limitsTable: true,
});
