// Keeps the README honest: the executor's failure codes this adapter passes through and every limit are documented.
import { CallErrorCode } from '@bough/core';
import { describeReadmeContract } from '@bough/test-utils';
import { DEFAULT_AI_SDK_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_AI_SDK_LIMITS, { codes: Object.values(CallErrorCode) });
