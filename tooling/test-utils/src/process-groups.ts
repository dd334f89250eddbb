// Process-group probes for tests of code that spawns and kills process groups (Linux: they read /proc).
import { readdirSync, readFileSync } from 'node:fs';

/** True while any process is left in the group `pgid`; `kill(-pgid, 0)` fails with ESRCH once it is empty. */
export function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** Pids of group members that are not zombies, read from /proc (Linux): processes that could still do something. */
export function runningMembers(pgid: number): number[] {
  return survivors([pgid]);
}

/** Pids of live (not zombie) processes whose process group is any of `pgids`, read from /proc (Linux). */
export function survivors(pgids: Iterable<number>): number[] {
  const wanted = new Set(pgids);
  const found: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (wanted.has(Number(pgrp)) && state !== 'Z' && state !== 'X') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Polls `check` every 20 ms until it returns a value other than undefined, or throws after `tries` polls. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, tries = 500): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition never became true');
}

/** Resolves once `kill(-pgid, 0)` reports ESRCH; zombies of orphans wait for init to reap them, which can be slow. */
export async function groupDisappears(pgid: number): Promise<boolean> {
  for (let i = 0; i < 500; i++) {
    if (!groupExists(pgid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/** A minimal environment for tests that must not depend on the host's variables. */
export const TEST_BASE_ENV: Record<string, string> = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/nonexistent' };
