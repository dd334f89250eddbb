export type { BashCallOptions, BashOptions } from './bash-options.js';
export { BASH_DESCRIPTION } from './description.js';
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
export { BashJobStarted, JobsRequest, JobsResponse } from './jobs-schema.js';
export { createJobsTool, handleJobs, JOBS_DESCRIPTION } from './jobs-tool.js';
export { type BashLimits, DEFAULT_BASH_LIMITS, resolveBashLimits } from './limits.js';
export { BashFailure, BashRequest, BashResponse, BashResult } from './schema.js';
export { createBashTool } from './tool.js';
export { type BashToolSet, bashProvider, createBashTools, type DisposableProvider } from './tool-set.js';
