import type { ToolFailure } from '@bough/core';
import { clampTimeout, type ProcessExit, type ProcessFailure, type StartedProcess } from '@bough/process';
import { type BashErrorCode, failure } from './errors.js';
import { JobStream, type StreamRead } from './job-output.js';
import { type BashLimits, resolveBashLimits } from './limits.js';

/** Where a background job is in its life. */
export type JobStatus = 'running' | 'exited' | 'killed' | 'timed_out';

/** One background job as its owner sees it. */
export interface JobInfo {
  readonly job_id: string;
  readonly command: string;
  readonly status: JobStatus;
  /** ISO time the job started. */
  readonly started_at: string;
  /** Milliseconds since the job started. */
  readonly age_ms: number;
  /** Exit status once the job has ended (-1 when it was ended by a signal); null while it runs. */
  readonly return_code: number | null;
  readonly signal: string | null;
  readonly sandboxed: boolean;
}

/** What the store needs to start one job; `launch` does the spawning (plain or sandboxed). */
export interface JobLaunch {
  readonly command: string;
  /** Milliseconds before the job is stopped with status `timed_out` (at most the lifetime limit). */
  readonly lifetimeMs?: number;
  readonly sandboxed: boolean;
  readonly launch: (
    onStdout: (chunk: Buffer) => void,
    onStderr: (chunk: Buffer) => void,
  ) => Promise<StartedProcess | ProcessFailure>;
  /** Asked before output is handed out; a string withholds the output with that explanation. */
  readonly outputGuard?: () => string | undefined;
  /** Runs once the job has ended (for sandbox clean-up); a string it returns is shown with the job's output. */
  readonly onEnd?: () => string | undefined;
}

/** The result of reading a job's output. */
export interface JobOutput extends JobInfo {
  readonly stdout: StreamRead;
  readonly stderr: StreamRead;
  readonly withheld?: string;
  /** What the sandbox undid after the job ended (see `JobLaunch.onEnd`). */
  readonly endNote?: string;
}

interface JobRecord {
  readonly id: string;
  readonly command: string;
  readonly startedAt: number;
  readonly sandboxed: boolean;
  readonly process: StartedProcess;
  readonly stdout: JobStream;
  readonly stderr: JobStream;
  readonly ended: Promise<void>;
  readonly outputGuard: (() => string | undefined) | undefined;
  status: JobStatus;
  exit: ProcessExit | undefined;
  stopping: JobStatus | undefined;
  timer: NodeJS.Timeout | undefined;
  withheld: string | undefined;
  endNote: string | undefined;
}

/** Failure codes of the job store (a part of `BASH_ERROR_CODES`). */
export type JobFailureCode = Extract<BashErrorCode, 'too_many_jobs' | 'jobs_disposed' | 'job_not_found'>;

/** A refused job operation; `error_code` is one of `BASH_ERROR_CODES` (spawn failures pass through). */
export type JobFailure = ToolFailure<BashErrorCode>;

const live = new Set<JobStore>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous: SIGKILL every group that is still running, then let the host go.
  process.once('exit', () => {
    for (const store of live) store.killAllNow();
  });
}

/**
 * The background jobs of one tool instance (in the toolkit: one branch). Bounded in number, lifetime and kept
 * output; {@link JobStore.dispose} and the end of the host process kill every job's process group.
 */
export class JobStore {
  readonly limits: BashLimits;
  readonly #jobs = new Map<string, JobRecord>();
  readonly #endListeners = new Set<(job: JobInfo) => void>();
  #next = 1;
  #disposed = false;

  constructor(limits?: Partial<BashLimits>) {
    this.limits = resolveBashLimits(limits);
  }

  /**
   * Calls `listener` with the job's final state each time a job of this store ends (exits, is killed or times out),
   * for callers that act on what a job left behind (the coding toolkit's checkpoints). Returns the unsubscribe.
   */
  onJobEnd(listener: (job: JobInfo) => void): () => void {
    this.#endListeners.add(listener);
    return () => this.#endListeners.delete(listener);
  }

  /** True once {@link JobStore.dispose} ran; no job can start any more. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** Starts a job, or refuses when the store is disposed or full. */
  async start(spec: JobLaunch): Promise<{ success: true; info: JobInfo } | JobFailure | ProcessFailure> {
    if (this.#disposed) return refusal('jobs_disposed', 'This tool was shut down; no background job can start.');
    const running = [...this.#jobs.values()].filter((job) => job.status === 'running').length;
    if (running >= this.limits.maxJobs) {
      return refusal(
        'too_many_jobs',
        `${running} background jobs are already running, the most this tool allows (maxJobs ${this.limits.maxJobs}). ` +
          'Stop one with jobs {"action":"kill"} or wait for one to end, then start this again.',
      );
    }
    const stdout = new JobStream(this.limits.jobOutputBytes, 'stdout');
    const stderr = new JobStream(this.limits.jobOutputBytes, 'stderr');
    const started = await spec.launch(
      (chunk) => stdout.push(chunk),
      (chunk) => stderr.push(chunk),
    );
    if (!started.success) return started;
    if (this.#disposed) {
      started.killNow();
      return refusal('jobs_disposed', 'This tool was shut down while the job started; it was stopped.');
    }
    const id = `job_${this.#next++}`;
    const record: JobRecord = {
      id,
      command: spec.command,
      startedAt: Date.now(),
      sandboxed: spec.sandboxed,
      process: started,
      stdout,
      stderr,
      outputGuard: spec.outputGuard,
      status: 'running',
      exit: undefined,
      stopping: undefined,
      timer: undefined,
      withheld: undefined,
      endNote: undefined,
      ended: started.done.then((exit) => {
        record.exit = exit;
        record.status = record.stopping ?? 'exited';
        if (record.timer) clearTimeout(record.timer);
        record.endNote = spec.onEnd?.();
        for (const listener of this.#endListeners) {
          try {
            listener(this.#info(record));
          } catch {
            // A listener's bug must not disturb the job bookkeeping.
          }
        }
        if (!this.#hasRunning()) live.delete(this);
      }),
    };
    const lifetime = Math.min(spec.lifetimeMs ?? this.limits.jobLifetimeMs, this.limits.jobLifetimeMs);
    record.timer = setTimeout(() => void this.#stop(record, 'timed_out'), lifetime);
    record.timer.unref();
    this.#jobs.set(id, record);
    this.#evictFinished();
    live.add(this);
    installExitHook();
    return { success: true, info: this.#info(record) };
  }

  /** Every job this store knows, oldest first. */
  list(): JobInfo[] {
    return [...this.#jobs.values()].map((job) => this.#info(job));
  }

  /** The job's state and the output since the given offsets. */
  output(id: string, since: { stdout?: number; stderr?: number }, maxBytes?: number): JobOutput | JobFailure {
    const job = this.#jobs.get(id);
    if (!job) return this.#notFound(id);
    return this.#read(job, since, maxBytes);
  }

  /**
   * Waits until the job ends or `timeoutMs` passes (or `signal` aborts), then reads like {@link JobStore.output}.
   * The timeout follows the one shared rule (`clampTimeout`): a non-positive or non-finite value means
   * `defaultTimeoutMs`, and nothing waits longer than `jobWaitMaxMs`.
   */
  async wait(
    id: string,
    timeoutMs: number,
    since: { stdout?: number; stderr?: number },
    maxBytes?: number,
    signal?: AbortSignal,
  ): Promise<JobOutput | JobFailure> {
    const job = this.#jobs.get(id);
    if (!job) return this.#notFound(id);
    const limit = this.waitTimeout(timeoutMs).timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      job.ended,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, limit);
        onAbort = () => resolve();
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    return this.#read(job, since, maxBytes);
  }

  /** How long {@link JobStore.wait} waits for a requested timeout, with a sentence for the model when it changed it. */
  waitTimeout(requested: number | undefined): { timeoutMs: number; note?: string } {
    return clampTimeout(requested, { defaultMs: this.limits.defaultTimeoutMs, maxMs: this.limits.jobWaitMaxMs });
  }

  /** TERM to the job's group, `killGraceMs` later KILL; resolves with its final state. */
  async kill(id: string, since: { stdout?: number; stderr?: number } = {}, maxBytes?: number) {
    const job = this.#jobs.get(id);
    if (!job) return this.#notFound(id);
    await this.#stop(job, 'killed');
    return this.#read(job, since, maxBytes);
  }

  /** Kills every running job (TERM, grace, KILL) and refuses new ones; resolves when all groups are gone. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    await Promise.all([...this.#jobs.values()].map((job) => this.#stop(job, 'killed', 0)));
    live.delete(this);
  }

  /** SIGKILL to every running job, synchronously (the process-exit path). */
  killAllNow(): void {
    this.#disposed = true;
    for (const job of this.#jobs.values()) {
      if (job.status === 'running') {
        job.stopping ??= 'killed';
        job.process.killNow();
      }
    }
  }

  #stop(job: JobRecord, why: JobStatus, graceMs = this.limits.killGraceMs): Promise<void> {
    if (job.status !== 'running') return job.ended;
    job.stopping ??= why;
    void job.process.stop(graceMs);
    return job.ended;
  }

  #hasRunning(): boolean {
    return [...this.#jobs.values()].some((job) => job.status === 'running');
  }

  /** Keeps at most `maxJobs` finished jobs (their output stays readable until then), dropping the oldest. */
  #evictFinished(): void {
    const finished = [...this.#jobs.values()].filter((job) => job.status !== 'running');
    for (const job of finished.slice(0, Math.max(0, finished.length - this.limits.maxJobs))) this.#jobs.delete(job.id);
  }

  #read(job: JobRecord, since: { stdout?: number; stderr?: number }, maxBytes?: number): JobOutput {
    const ended = job.status !== 'running';
    const budget = maxBytes !== undefined && maxBytes > 0 ? maxBytes : this.limits.jobReadBytes;
    job.withheld ??= job.outputGuard?.();
    if (job.withheld) {
      const none = (stream: JobStream) => ({ text: '', next: stream.end, dropped: 0, omitted: 0 });
      return { ...this.#info(job), stdout: none(job.stdout), stderr: none(job.stderr), withheld: job.withheld };
    }
    return {
      ...this.#info(job),
      ...(job.endNote ? { endNote: job.endNote } : {}),
      stdout: job.stdout.read(since.stdout ?? 0, budget, ended),
      stderr: job.stderr.read(since.stderr ?? 0, budget, ended),
    };
  }

  #info(job: JobRecord): JobInfo {
    const code = job.exit ? (typeof job.exit.return_code === 'number' ? job.exit.return_code : -1) : null;
    return {
      job_id: job.id,
      command: job.command,
      status: job.status,
      started_at: new Date(job.startedAt).toISOString(),
      age_ms: Date.now() - job.startedAt,
      return_code: code,
      signal: job.exit?.signal ?? null,
      sandboxed: job.sandboxed,
    };
  }

  #notFound(id: string): JobFailure {
    const known = [...this.#jobs.keys()];
    return refusal(
      'job_not_found',
      `No background job ${JSON.stringify(id)} belongs to this tool${known.length ? ` (known: ${known.join(', ')})` : ''}. ` +
        'Use jobs {"action":"list"} to see the jobs; finished jobs are forgotten once more than maxJobs have ended.',
    );
  }
}

function refusal(code: JobFailureCode, error: string): JobFailure {
  return failure(code, error);
}
