// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { describeReadmeContract } from '@bough/test-utils';
import { NATS_EXCHANGE_ERROR_CODES } from './errors.js';
import { DEFAULT_NATS_EXCHANGE_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_NATS_EXCHANGE_LIMITS, {
  table: NATS_EXCHANGE_ERROR_CODES,
  limitsTable: true,
});
