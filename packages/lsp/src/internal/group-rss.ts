import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resident memory of every process in the group `pgid`, in bytes, read from /proc (a server such as
 * typescript-language-server runs its real work in a child). Undefined where /proc cannot be read.
 */
export function groupRssBytes(pgid: number): number | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let total = 0;
  let found = false;
  for (const name of names) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (group !== pgid) continue;
      const status = readFileSync(`/proc/${name}/status`, 'latin1');
      const kib = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
      if (kib) {
        total += Number(kib) * 1024;
        found = true;
      }
    } catch {
      // ended meanwhile
    }
  }
  return found ? total : undefined;
}
