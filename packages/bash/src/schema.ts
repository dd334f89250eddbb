import { failureSchema } from '@bough/core';
import { z } from 'zod';
import { BASH_ERROR_CODES, type BashToolFailure } from './errors.js';
import { BashJobStarted } from './jobs-schema.js';

/** One command to run without a shell; unknown fields (such as the retired `allow_shell`) are refused. */
export const BashRequest = z
  .object({
    command: z.string().min(1).describe('Program and arguments, POSIX-quoted.'),
    timeout: z.number().optional(),
    cwd: z.string().min(1).optional().describe('Directory, relative to the workspace root.'),
    background: z.boolean().optional().describe('Start a job and answer with its job_id.'),
  })
  .strict();

/** A validated bash request. */
export type BashRequest = z.infer<typeof BashRequest>;
/** What a caller may pass to `handleBash` (the schema's input type), so a plain program gets compile-time checks. */
export type BashInput = z.input<typeof BashRequest>;

/** What a command that ran produced, whatever its exit status. */
export const BashResult = z.object({
  success: z.literal(true).describe('true: the command ran (whatever its exit status; read return_code)'),
  stdout: z.string().describe('Standard output; when it was too long, head and tail are kept around a marker.'),
  stderr: z.string().describe('Standard error, capped the same way as stdout.'),
  return_code: z.number().int().describe('Exit status; -1 when the command was ended by a signal.'),
  signal: z.string().nullable().describe('The signal that ended the command (for example SIGKILL), or null.'),
  timed_out: z.boolean().describe('True when the command was stopped because the timeout elapsed.'),
  stdout_truncated: z.boolean(),
  stderr_truncated: z.boolean(),
  timeout_ms: z.number().int().describe('The timeout that was actually applied.'),
  duration_ms: z.number().describe('Wall-clock time of the call in milliseconds.'),
  sandboxed: z.boolean().describe('True when the command ran inside the OS sandbox.'),
  note: z.string().optional().describe('Why the timeout differs from the request, or what a timeout means.'),
});

/** A command that ran, whatever its exit status. */
export type BashResult = z.infer<typeof BashResult>;

/** The standard failure shape: the command did not run (refused, not found, bad cwd, …). */
export const BashFailure = failureSchema(BASH_ERROR_CODES);

/** A refused or failed call; `error_code` is one of {@link BASH_ERROR_CODES}. */
export type BashFailure = BashToolFailure;

/** Either the outcome of a command that ran or a typed failure saying why it did not run. */
export const BashResponse = z.union([BashResult, BashJobStarted, BashFailure]);

/** Either the outcome of a command that ran, a started job, or a typed failure (narrow with `success`). */
export type BashResponse = BashResult | z.infer<typeof BashJobStarted> | BashFailure;

/**
 * The answer to a request of type `R`: a started job when it asks for `background: true`, the command's output when it
 * leaves `background` out or false, either when that is only known at run time; a failure is always possible.
 */
export type BashResponseFor<R extends BashInput> = R extends { background: true }
  ? z.infer<typeof BashJobStarted> | BashFailure
  : R extends { background: false }
    ? BashResult | BashFailure
    : // A `background` key of type boolean (or optional) may go either way; no key at all is a foreground run.
      'background' extends keyof R
      ? BashResponse
      : BashResult | BashFailure;
