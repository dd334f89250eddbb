// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { describeReadmeTables } from '@bough/test-utils';
import { CONTEXT_ERROR_CODES } from './errors.js';
import { DEFAULT_CONTEXT_LIMITS } from './limits.js';

describeReadmeTables(import.meta.dirname, { codes: CONTEXT_ERROR_CODES, limits: DEFAULT_CONTEXT_LIMITS });
