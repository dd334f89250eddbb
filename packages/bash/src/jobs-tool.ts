import {
  defineTool,
  describeZodError,
  limitText,
  parseOnce,
  type Tool,
  type ToolContext,
  touchesNothing,
} from '@bough/core';
import { type BashToolFailure, failure } from './errors.js';
import type { JobOutput, JobStore } from './job-store.js';
import { type JobsInput, JobsRequest, JobsResponse, type JobsResponseFor } from './jobs-schema.js';
import { type BashLimits, DEFAULT_BASH_LIMITS } from './limits.js';
import { commandModelText, commandSummary } from './render.js';

// Lean on purpose (it is sent with every request); the answers say what was cut and what to pass next.
const JOBS_TEMPLATE = [
  'Jobs started by bash with background: true. list: all jobs. output: what a job printed since `since` (the last',
  "answer's `next`). wait: until it ends or `timeout` ms (default {defaultTimeoutMs}, max {jobWaitMaxMs}). kill:",
  'stop it and its children. Jobs end with the session; at most {maxJobs} run at once.',
].join(' ');

/** The description of a jobs tool whose store has `limits`: every number in it is the one enforced. */
export function jobsDescription(limits: BashLimits): string {
  return limitText(JOBS_TEMPLATE, limits);
}

/** The model-facing description of the jobs tool with the default limits. */
export const JOBS_DESCRIPTION = jobsDescription(DEFAULT_BASH_LIMITS);

/**
 * Answers one jobs request against a store; never throws for an expected failure. The answer's type follows the
 * request's action (`list` gives `jobs`, the others one job's output).
 */
export async function handleJobs<R extends JobsInput>(
  request: R,
  store: JobStore,
  signal?: AbortSignal,
  parsedBy?: ToolContext['parsedBy'],
): Promise<JobsResponseFor<R['action']>> {
  return (await jobsResponse(request, store, signal, parsedBy)) as JobsResponseFor<R['action']>;
}

async function jobsResponse(
  request: unknown,
  store: JobStore,
  signal?: AbortSignal,
  parsedBy?: ToolContext['parsedBy'],
): Promise<JobsResponse> {
  const parsed = parseOnce(JobsRequest, request, parsedBy);
  if (!parsed.success) return failure('invalid_request', `Invalid jobs request: ${describeZodError(parsed.error)}`);
  const { action, job_id, since = {}, max_bytes, timeout } = parsed.data;
  if (action === 'list') return { success: true, jobs: store.list() };
  if (job_id === undefined)
    return failure('invalid_request', `The ${action} action needs a job_id; list the jobs to find it.`);
  let result: JobOutput | BashToolFailure;
  let timeoutNote: string | undefined;
  if (action === 'output') result = store.output(job_id, since, max_bytes);
  else if (action === 'kill') result = await store.kill(job_id, since, max_bytes);
  else {
    const applied = store.waitTimeout(timeout);
    timeoutNote = applied.note;
    result = await store.wait(job_id, applied.timeoutMs, since, max_bytes, signal);
  }
  if ('success' in result) return result;
  return shape(result, timeoutNote);
}

function shape(read: JobOutput, timeoutNote?: string): JobsResponse {
  const { stdout, stderr, withheld, endNote, ...info } = read;
  const notes: string[] = timeoutNote ? [timeoutNote] : [];
  if (withheld) notes.push(withheld);
  if (endNote) notes.push(endNote);
  if (stdout.omitted > 0 || stderr.omitted > 0) {
    notes.push('More output arrived than max_bytes: the middle is left out; read again with smaller steps to see it.');
  }
  if (stdout.dropped > 0 || stderr.dropped > 0) {
    notes.push('Some older output was dropped before it was read: only the newest part of each stream is kept.');
  }
  return {
    success: true,
    ...info,
    stdout: stdout.text,
    stderr: stderr.text,
    next: { stdout: stdout.next, stderr: stderr.next },
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  };
}

/** Builds the `jobs` tool over a store shared with the bash tool that starts the jobs. */
export function createJobsTool(store: JobStore): Tool<JobsRequest, JobsResponse> {
  return defineTool({
    name: 'jobs',
    description: jobsDescription(store.limits),
    request: JobsRequest,
    response: JobsResponse,
    scope: 'branch',
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    // A job's paths are those of the bash call that started it (checked then); reading or stopping it names none.
    touches: touchesNothing,
    toModelText: commandModelText,
    summarize: commandSummary,
    handler: (request, context) => handleJobs(request, store, context.signal, context.parsedBy),
  });
}
