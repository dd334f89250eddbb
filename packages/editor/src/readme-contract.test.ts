// Keeps the README honest: every failure code the sources can return and every limit is documented there.
import { describeReadmeContract } from '@bough/test-utils';
import { DEFAULT_EDITOR_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_EDITOR_LIMITS);
