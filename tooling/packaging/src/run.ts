import { spawn } from 'node:child_process';

/** What a finished command printed and how it ended. */
export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link run}. */
export interface RunOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The whole process group is killed after this long (a hung install must not hang the test run). */
  readonly timeoutMs?: number;
}

/** Process groups started by {@link run} and not yet ended: killed when this process exits or is told to stop. */
const live = new Set<number>();
let guarded = false;

function killLive(): void {
  for (const pid of live) killGroup(pid);
  live.clear();
}

/**
 * Kills every live child group on exit, SIGINT and SIGTERM (a signal is raised again afterwards, so the process
 * still ends the way it was asked to). Installed once, on the first {@link run}.
 */
function guardChildren(): void {
  if (guarded) return;
  guarded = true;
  process.once('exit', killLive);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killLive();
      process.kill(process.pid, signal);
    });
  }
}

/** Runs a command without a shell and collects its output; never rejects for a non-zero exit. */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    guardChildren();
    if (child.pid !== undefined) live.add(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${options.timeoutMs} ms]`;
      killGroup(child.pid);
    }, options.timeoutMs ?? 300_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      if (child.pid !== undefined) live.delete(child.pid);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // Whatever the command left behind in its group (a daemon, a hung grandchild) ends with it.
      killGroup(child.pid);
      if (child.pid !== undefined) live.delete(child.pid);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Kills a detached child's whole process group (ignores one that is already gone). */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already exited
  }
}

/** Runs tasks with at most `limit` at a time; each result is its own promise, so a caller can await one. */
export function limited<T>(limit: number): (task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return (task) =>
    new Promise<T>((resolve, reject) => {
      const start = () => {
        active += 1;
        task()
          .then(resolve, reject)
          .finally(() => {
            active -= 1;
            queue.shift()?.();
          });
      };
      if (active < limit) start();
      else queue.push(start);
    });
}
