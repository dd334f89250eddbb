// Keeps the README honest: every failure code the sources can return and every limit is documented there.
import { describeReadmeContract } from '@bough/test-utils';
import { MessengerErrorCode } from './errors.js';
import { DEFAULT_MESSENGER_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_MESSENGER_LIMITS, { codes: Object.values(MessengerErrorCode) });
