import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Synchronous file calls on purpose (here and on the other steps every snapshot takes): each is one metadata call the
// kernel answers in microseconds, while an asynchronous one waits for a thread-pool turn — which, on a busy machine,
// cost a snapshot with nothing to do more than all its real work.
//
// Our own code rather than a lock library: an exclusive mkdir is atomic on every local file system, and the owner's pid
// beside it is all a stale-lock check needs (about forty lines, no dependency).
//
// One queue per store directory in this process, so two stores opened on one workspace (two branches) take turns
// without spinning; the lock directory below does the same between processes.
const queues = new Map<string, Promise<unknown>>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

async function takeDirLock(lockDir: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // A lock left by a process that died is taken over; one whose owner is still starting (no pid yet) is waited for.
    const owner = Number(readOr(join(lockDir, 'pid')));
    if (owner > 0 && !alive(owner)) {
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Runs `work` while holding the store (in this process and between processes); `busy` when it could not be had. */
export async function withStoreLock<T>(
  dir: string,
  lockDir: string,
  waitMs: number,
  work: () => Promise<T>,
  busy: () => T,
): Promise<T> {
  const previous = queues.get(dir) ?? Promise.resolve();
  const run = previous.then(async () => {
    if (!(await takeDirLock(lockDir, waitMs))) return busy();
    try {
      return await work();
    } finally {
      rmSync(lockDir, { recursive: true, force: true });
    }
  });
  const settled = run.catch(() => undefined);
  queues.set(dir, settled);
  void settled.then(() => {
    if (queues.get(dir) === settled) queues.delete(dir);
  });
  return run;
}
