/** Child environment construction and secret filtering. */
export {
  type BuildEnvOptions,
  buildEnv,
  DEFAULT_ENV_ALLOWLIST,
  isSecretEnvName,
  isSecretEnvValue,
  NON_INTERACTIVE_ENV,
  SECRET_NAME_FRAGMENTS,
} from './build-env.js';
/** The one timeout rule shared by every command-running tool. */
export { type ClampedTimeout, type ClampTimeoutLimits, clampTimeout } from './clamp-timeout.js';
/** Failure shape and codes of this package. */
export { PROCESS_ERROR_CODES, type ProcessFailure, type ProcessFailureCode, processFailure } from './failure.js';
/** Default limits, each overridable through options. */
export { DEFAULT_PROCESS_LIMITS } from './limits.js';
/** The checked command {@link StartOptions.wrap} receives and returns. */
export type { PreparedCommand } from './prepared-command.js';
/** What a finished program returned. */
export type { ProcessResult } from './process-result.js';
/** How {@link runProcess} runs a program. */
export type { RunOptions } from './run-options.js';
/** Runs a program under bough's process rules; see {@link runProcess}. */
export { type RunProcessOutcome, runProcess } from './run-process.js';
/** The OS sandbox (bubblewrap) for commands and jobs. */
export {
  type CheckedSandbox,
  checkSandboxSettings,
  openSandbox,
  type SandboxMode,
  type SandboxSession,
  type SandboxSettings,
  type SandboxSupport,
  sandboxSupport,
} from './sandbox.js';
/** Parses a command string into argv without a shell; see {@link splitCommand}. */
export { type SplitFailure, type SplitFailureCode, type SplitSuccess, splitCommand } from './split-command.js';
/** Starts a long-running program (a background job); see {@link startProcess}. */
export { type ProcessExit, type StartedProcess, type StartOptions, startProcess } from './start-process.js';
