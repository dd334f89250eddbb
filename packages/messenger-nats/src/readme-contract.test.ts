// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { describeReadmeTables } from '@bough/test-utils';
import { NATS_EXCHANGE_ERROR_CODES } from './errors.js';
import { DEFAULT_NATS_EXCHANGE_LIMITS } from './limits.js';

describeReadmeTables(import.meta.dirname, { codes: NATS_EXCHANGE_ERROR_CODES, limits: DEFAULT_NATS_EXCHANGE_LIMITS });
