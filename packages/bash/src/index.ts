export type { BashCallOptions, BashOptions } from './bash-options.js';
export { BASH_DESCRIPTION } from './description.js';
/** The failure-code table (`error_code` of every failure is one of these). */
export { BASH_ERROR_CODES, type BashErrorCode } from './errors.js';
export { handleBash } from './handle-bash.js';
export {
  type JobFailure,
  type JobFailureCode,
  type JobInfo,
  type JobLaunch,
  type JobOutput,
  type JobStatus,
  JobStore,
} from './job-store.js';
export {
  BashJobStarted,
  type JobsInput,
  JobsRequest,
  JobsResponse,
  type JobsResponseFor,
  type JobsSuccessByAction,
} from './jobs-schema.js';
export { createJobsTool, handleJobs, JOBS_DESCRIPTION } from './jobs-tool.js';
export { BASH_LIMITS, type BashLimits, DEFAULT_BASH_LIMITS, resolveBashLimits } from './limits.js';
export {
  BashFailure,
  type BashInput,
  BashRequest,
  BashResponse,
  type BashResponseFor,
  BashResult,
} from './schema.js';
export { createBashTool } from './tool.js';
export { type BashToolSet, bashProvider, createBashTools, type DisposableProvider } from './tool-set.js';
