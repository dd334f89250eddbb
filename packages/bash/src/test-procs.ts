// Process scans for this package's tests (excluded from the build by the `test-*` pattern).
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of live (not zombie) processes whose process group is one of `pgids`, read from /proc. */
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

/** True while `pid` is a live (not zombie) process. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Polls `check` every 20 ms until it returns a value other than undefined, or gives up after `tries`. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, tries = 500): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition never became true');
}
