// Keeps the README honest: every failure code and every limit is documented there.
import { describeReadmeContract } from '@bough/test-utils';
import { NatsExchangeErrorCode } from './errors.js';
import { DEFAULT_NATS_EXCHANGE_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_NATS_EXCHANGE_LIMITS, {
  codes: Object.values(NatsExchangeErrorCode),
});
