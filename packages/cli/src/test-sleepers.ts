// Test helper (not built): finds the `sleep` processes a test started, wherever they run.
import { readdirSync, readFileSync } from 'node:fs';

/** Host pids of live `sleep <marker>` processes, wherever they run (a sandboxed one has another pid inside). */
export function sleepers(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0');
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
      if (argv.at(-2) === marker && /sleep$/.test(argv[0] ?? '') && state !== 'Z') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Polls every 25 ms until `check` holds; the test's timeout bounds it. */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 25));
}
