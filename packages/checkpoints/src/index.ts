export {
  type CheckpointStore,
  type CheckpointStoreOptions,
  createCheckpointStore,
  type RecordedCall,
} from './checkpoint-store.js';
/** The failure-code table (`error_code` of every failure is one of these). */
export { CHECKPOINTS_ERROR_CODES, type CheckpointsErrorCode, type CheckpointsFailure } from './errors.js';
export { type CheckpointsCallOptions, handleCheckpoints } from './handle-checkpoints.js';
export {
  CHECKPOINTS_LIMITS,
  type CheckpointsLimits,
  DEFAULT_CHECKPOINTS_LIMITS,
  resolveCheckpointsLimits,
} from './limits.js';
export {
  CheckpointsDiffResult,
  CheckpointsFailureSchema,
  type CheckpointsInput,
  CheckpointsListResult,
  CheckpointsRequest,
  CheckpointsResponse,
  CheckpointsRestoreResult,
} from './schema.js';
export { defaultStoreDir } from './store-dir.js';
export { CHECKPOINTS_DESCRIPTION, checkpointsProvider, createCheckpointsTool } from './tool.js';
export type {
  CheckpointList,
  CheckpointSummary,
  DiffOptions,
  DiffResult,
  ListOptions,
  RestoreOptions,
  RestoreResult,
  SkippedPath,
  SkipReason,
  SnapshotOptions,
  SnapshotResult,
} from './types.js';
