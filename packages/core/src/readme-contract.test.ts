// Keeps the README honest: its failure-code table lists exactly the executor's CallErrorCode values. Core has no limits.
import { describeReadmeContract } from '@bough/test-utils';
import { CallErrorCode } from './errors.js';

describeReadmeContract(import.meta.dirname, {}, { table: Object.values(CallErrorCode) });
