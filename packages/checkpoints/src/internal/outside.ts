import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';

/**
 * Whether `dir` (which may not exist yet) lies in the workspace `root` (a real path), links on the way followed: a
 * store in the workspace would be within reach of every tool and command, and its status check would list the
 * store's own files.
 */
export function isInside(root: string, dir: string): boolean {
  const real = realOfNearest(resolve(dir));
  return real === root || real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/** The real path of `path`, taken from its nearest existing ancestor when it does not exist (yet). */
function realOfNearest(path: string): string {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...rest.reverse());
    } catch {
      if (dirname(at) === at) return path;
      rest.push(basename(at));
    }
  }
}
