// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { describeReadmeTables } from '@bough/test-utils';
import { CODING_ERROR_CODES } from './errors.js';
import { DEFAULT_CODING_LIMITS } from './limits.js';

describeReadmeTables(import.meta.dirname, { codes: CODING_ERROR_CODES, limits: DEFAULT_CODING_LIMITS });
