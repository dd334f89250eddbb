import { defineErrorCodes, type ErrorCodeOf, failureBuilder, type ToolFailure } from '@bough/core';
import { PROCESS_ERROR_CODES } from '@bough/process';

/**
 * Every `error_code` the bash and jobs tools return, in one table: their own codes and the codes of
 * `@bough/process` (command splitting, spawning, the sandbox, and the workspace refusals of `cwd`), passed through
 * unchanged. The README lists exactly this table.
 */
export const BASH_ERROR_CODES = defineErrorCodes([
  'invalid_request',
  'command_too_long',
  'jobs_unavailable',
  'too_many_jobs',
  'jobs_disposed',
  'job_not_found',
  ...PROCESS_ERROR_CODES,
]);

/** A code of {@link BASH_ERROR_CODES}. */
export type BashErrorCode = ErrorCodeOf<typeof BASH_ERROR_CODES>;

/** An expected failure of the bash or jobs tool, `error_code` typed by {@link BASH_ERROR_CODES}. */
export type BashToolFailure = ToolFailure<BashErrorCode>;

/** Core's failure builder narrowed to the bash table, so a misspelt code does not compile. */
export const failure = failureBuilder(BASH_ERROR_CODES);
