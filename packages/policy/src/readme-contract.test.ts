// Keeps the README honest: it lists exactly the limits with their defaults (the package has no failure codes).
import { describeReadmeContract } from '@bough/test-utils';
import { DEFAULT_POLICY_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_POLICY_LIMITS, { table: 'none', limitsTable: true });
