import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** The machine's state when a suite starts: what the disk still had to write, and the load. */
export interface StartConditions {
  /** Dirty page cache (kB, /proc/meminfo) before the settle. */
  readonly dirtyKb: number;
  /** Pages under writeback (kB) before the settle. */
  readonly writebackKb: number;
  /** Dirty + writeback (kB) when the suite started. */
  readonly leftKb: number;
  /** Time spent in `sync` and waiting for the writeback to drain (ms). */
  readonly waitedMs: number;
  /** One-minute load average when the suite started. */
  readonly load1: number;
}

/** Dirty and writeback page cache in kB, or undefined where /proc/meminfo is not there (not Linux). */
export function pendingWrites(meminfo?: string): { dirtyKb: number; writebackKb: number } | undefined {
  let text = meminfo;
  try {
    text ??= readFileSync('/proc/meminfo', 'utf8');
  } catch {
    return undefined;
  }
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'mu').exec(text)?.[1] ?? Number.NaN);
  const dirtyKb = field('Dirty');
  const writebackKb = field('Writeback');
  return Number.isFinite(dirtyKb) && Number.isFinite(writebackKb) ? { dirtyKb, writebackKb } : undefined;
}

/**
 * Gives every suite the same start: the files earlier suites wrote (and the removal of their scratch trees) reach the
 * disk before the next suite times anything. Without it, a suite that writes files (checkpoints, git) ran while the
 * kernel was still flushing hundreds of MB left by the suites before it, and its file system calls waited on that
 * flush: each figure then depended on what ran before. `sync` starts and waits for the flush; the loop then waits
 * (at most `maxMs`) for what other processes on the machine keep dirtying to fall under `floorKb`.
 */
export async function settleDisk(floorKb = 16 * 1024, maxMs = 60_000): Promise<StartConditions> {
  const t0 = performance.now();
  const before = pendingWrites() ?? { dirtyKb: 0, writebackKb: 0 };
  let now = before;
  try {
    execFileSync('sync', { stdio: 'ignore', timeout: maxMs });
    for (;;) {
      now = pendingWrites() ?? { dirtyKb: 0, writebackKb: 0 };
      if (now.dirtyKb + now.writebackKb <= floorKb || performance.now() - t0 >= maxMs) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch {
    // no `sync` here (or it timed out): the conditions below still say what the suite started with
  }
  return {
    ...before,
    leftKb: now.dirtyKb + now.writebackKb,
    waitedMs: performance.now() - t0,
    load1: loadavg()[0] ?? 0,
  };
}

/** The conditions as they are, without a settle (what was pending is what the suite starts with). */
export function currentConditions(): StartConditions {
  const now = pendingWrites() ?? { dirtyKb: 0, writebackKb: 0 };
  return { ...now, leftKb: now.dirtyKb + now.writebackKb, waitedMs: 0, load1: loadavg()[0] ?? 0 };
}

/** The conditions as one line of text, for the log and for a row's note. */
export function describeConditions(c: StartConditions): string {
  const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
  return (
    `dirty ${mb(c.dirtyKb)}, writeback ${mb(c.writebackKb)}; ${mb(c.leftKb)} left after sync ` +
    `(${(c.waitedMs / 1000).toFixed(1)} s); load average ${c.load1.toFixed(2)}`
  );
}
