import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Process-level tests run the built CLI, which loads every package's `dist`. A `dist` older than its `src` would test
// yesterday's code and pass or fail for the wrong reason, so those tests refuse to run on one.

/** Newest modification time (ms) of the files under `dir` that `keep` accepts; 0 when there are none. */
function newest(dir: string, keep: (name: string) => boolean): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path, keep));
    else if (entry.isFile() && keep(entry.name)) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

const isSource = (name: string) => name.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(name);
const isBuilt = (name: string) => name.endsWith('.js');

/**
 * The packages under `packagesDir` whose `src` has a source file changed after the newest file of their `dist`
 * (tests and packages without a build are left out), by directory name.
 */
export function staleBuilds(packagesDir: string): string[] {
  const stale: string[] = [];
  for (const name of readdirSync(packagesDir).sort()) {
    const src = join(packagesDir, name, 'src');
    const dist = join(packagesDir, name, 'dist');
    if (!existsSync(src) || !existsSync(dist)) continue;
    if (newest(src, isSource) > newest(dist, isBuilt)) stale.push(name);
  }
  return stale;
}
