// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { describeReadmeTables } from '@bough/test-utils';
import { MESSENGER_ERROR_CODES } from './errors.js';
import { DEFAULT_MESSENGER_LIMITS } from './limits.js';

describeReadmeTables(import.meta.dirname, { codes: MESSENGER_ERROR_CODES, limits: DEFAULT_MESSENGER_LIMITS });
