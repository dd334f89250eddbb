import { effectiveTimeout } from '@bough/core';
import { type SandboxSession, startProcess } from '@bough/process';
import type { BashCallOptions } from './bash-options.js';
import { failure } from './errors.js';
import type { BashJobStarted } from './jobs-schema.js';
import type { BashFailure } from './schema.js';

/**
 * Starts `argv` as a background job in the tool's job store, under the same cwd, environment and program rules as a
 * foreground call, and answers at once.
 */
export async function startBackgroundJob(
  argv: readonly string[],
  command: string,
  timeout: number | undefined,
  cwd: string | undefined,
  options: BashCallOptions,
  sandbox: SandboxSession,
): Promise<BashJobStarted | BashFailure> {
  const store = options.jobs;
  if (!store) {
    return failure(
      'jobs_unavailable',
      'Background jobs are not enabled for this bash tool (it has no jobs tool). Run the command without `background`.',
    );
  }
  // The one timeout rule: a missing, non-positive or non-finite timeout means the store's default lifetime.
  const lifetimeMs = effectiveTimeout(timeout, undefined);
  const started = await store.start({
    command,
    sandboxed: sandbox.sandboxed,
    outputGuard: sandbox.check,
    // Once the job's PID namespace is gone, undo what git would run later on the host.
    onEnd: () => sandbox.finish(),
    ...(lifetimeMs !== undefined ? { lifetimeMs } : {}),
    launch: (onStdout, onStderr) =>
      startProcess(argv, {
        ...(cwd !== undefined ? { cwd } : {}),
        workspaceRoot: options.workspaceRoot,
        ...(options.linkRule ? { linkRule: options.linkRule } : {}),
        ...(options.env ? { env: options.env } : {}),
        ...(options.baseEnv ? { baseEnv: options.baseEnv } : {}),
        drainMs: store.limits.drainMs,
        reapWaitMs: store.limits.reapWaitMs,
        onStdout,
        onStderr,
        wrap: sandbox.wrap,
      }),
  });
  if (!started.success) return failure(started.error_code, started.error);
  const { job_id, started_at, sandboxed } = started.info;
  return { success: true, job_id, command, started_at, sandboxed, ...(sandbox.note ? { note: sandbox.note } : {}) };
}
