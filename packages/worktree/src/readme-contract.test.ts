// Keeps the README honest: it lists exactly the exported failure code table and the limits with their defaults.
import { describeReadmeContract } from '@bough/test-utils';
import { WORKTREE_ERROR_CODES } from './errors.js';
import { DEFAULT_WORKTREE_LIMITS } from './limits.js';

describeReadmeContract(import.meta.dirname, DEFAULT_WORKTREE_LIMITS, {
  table: WORKTREE_ERROR_CODES,
  limitsTable: true,
});
