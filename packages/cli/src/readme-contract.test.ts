// Keeps the README honest: it lists exactly the CLI's limits with their defaults (the CLI answers with exit codes,
// not failure values, so it has no code table).
import { describeReadmeContract } from '@bough/test-utils';
import { DEFAULT_CLI_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_CLI_LIMITS, { table: 'none', limitsTable: true });
