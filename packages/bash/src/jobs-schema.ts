import { failureSchema } from '@bough/core';
import { z } from 'zod';
import { BASH_ERROR_CODES, type BashToolFailure } from './errors.js';

const Offsets = z
  .object({
    stdout: z.number().int().min(0).optional(),
    stderr: z.number().int().min(0).optional(),
  })
  .strict();

/** A request to the `jobs` tool: list the jobs, read one's output, wait for one, or kill one. */
export const JobsRequest = z
  .object({
    action: z.enum(['list', 'output', 'wait', 'kill']),
    job_id: z.string().min(1).optional().describe('From the bash answer.'),
    since: Offsets.optional().describe('Byte offsets per stream.'),
    max_bytes: z.number().int().positive().optional().describe('Most bytes per stream to return.'),
    timeout: z.number().optional(),
  })
  .strict();

/** A validated jobs request. */
export type JobsRequest = z.infer<typeof JobsRequest>;
/** What a caller may pass to `handleJobs` (the schema's input type), so a plain program gets compile-time checks. */
export type JobsInput = z.input<typeof JobsRequest>;

const Status = z.enum(['running', 'exited', 'killed', 'timed_out']);

/** One job in a list. */
export const JobSummary = z.object({
  job_id: z.string(),
  command: z.string(),
  status: Status,
  started_at: z.string(),
  age_ms: z.number().describe('Milliseconds since the job started.'),
  return_code: z.number().int().nullable().describe('Exit status once ended (-1 for a signal); null while running.'),
  signal: z.string().nullable(),
  sandboxed: z.boolean(),
});

/** The jobs of this tool. */
export const JobsList = z.object({ success: z.literal(true), jobs: z.array(JobSummary) });

/** A job's state and its new output. */
export const JobsOutput = JobSummary.extend({
  success: z.literal(true),
  stdout: z.string(),
  stderr: z.string(),
  next: z
    .object({ stdout: z.number().int(), stderr: z.number().int() })
    .describe('Offsets to pass as `since` next time to get only what is new.'),
  note: z.string().optional(),
});

/** Why a jobs request was refused. */
export const JobsFailure = failureSchema(BASH_ERROR_CODES);

/** Every answer of the jobs tool. */
export const JobsResponse = z.union([JobsList, JobsOutput, JobsFailure]);

/** Every answer of the jobs tool (narrow with `success`). */
export type JobsResponse = z.infer<typeof JobsList> | z.infer<typeof JobsOutput> | BashToolFailure;

/** The success of each jobs action, by action name: `list` lists, the others answer with one job's output. */
export interface JobsSuccessByAction {
  list: z.infer<typeof JobsList>;
  output: z.infer<typeof JobsOutput>;
  wait: z.infer<typeof JobsOutput>;
  kill: z.infer<typeof JobsOutput>;
}

/** The answer to a request with action `A`: that action's success, or a failure (narrow with `success`). */
export type JobsResponseFor<A extends JobsInput['action']> = JobsSuccessByAction[A] | BashToolFailure;

/** What bash answers at once for `background: true`. */
export const BashJobStarted = z.object({
  success: z.literal(true),
  job_id: z.string().describe('Pass it to the jobs tool to read output, wait or kill.'),
  command: z.string(),
  started_at: z.string(),
  sandboxed: z.boolean(),
  note: z.string().optional(),
});

/** What bash answers at once for `background: true`. */
export type BashJobStarted = z.infer<typeof BashJobStarted>;
