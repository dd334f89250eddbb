// Keeps the README honest: every failure code the sources can return and every limit is documented there.
import { describeReadmeContract } from '@bough/test-utils';
import { ContextErrorCode } from './errors.js';
import { DEFAULT_CONTEXT_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_CONTEXT_LIMITS, { codes: Object.values(ContextErrorCode) });
