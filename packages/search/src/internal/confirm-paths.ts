import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Workspace } from '@bough/workspace';
import { type ConfirmBudget, outOfTime } from './verify-results.js';

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const PROC_FD = process.platform === 'linux';

/** A listed file's parent directory held open, so the file's name is looked up in that very directory. */
interface HeldDir {
  readonly fd: number;
  /** Where names are joined to look them up inside the held directory. */
  readonly prefix: string;
}

/**
 * Opens `dir` (a real path the gate returned) without following a final link and proves the descriptor is that
 * directory: on Linux the kernel names the open directory (`/proc/self/fd`), and names are then looked up through the
 * descriptor, like `openat`; elsewhere the directory's identity by path must equal the descriptor's.
 */
function holdDir(dir: string): HeldDir | undefined {
  let fd: number;
  try {
    fd = openSync(dir, DIR_FLAGS);
  } catch {
    return undefined;
  }
  try {
    if (PROC_FD) {
      if (readlinkSync(`/proc/self/fd/${fd}`) === dir) return { fd, prefix: `/proc/self/fd/${fd}` };
    } else {
      const held = fstatSync(fd);
      const byPath = lstatSync(dir);
      if (held.isDirectory() && held.dev === byPath.dev && held.ino === byPath.ino) return { fd, prefix: dir };
    }
  } catch {
    // fall through: not proven
  }
  closeSync(fd);
  return undefined;
}

function entryIn(held: HeldDir, name: string): Stats | undefined {
  try {
    return lstatSync(join(held.prefix, name), { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * Keeps only the listed paths that are regular files inside the workspace now. The gate checks names, containment
 * and links along the path, but it looks each component up by path, so a directory swapped for a link between two of
 * its lookups could make a name from outside pass. Each kept path is therefore also looked up in its parent directory
 * held open and proven to be the real, inside directory the gate returned: a name read there is a name in the
 * workspace. Paths are decided in order; when the budget runs out the rest are left out and counted as unchecked.
 */
export async function confirmPaths(
  workspace: Workspace,
  paths: readonly string[],
  budget: ConfirmBudget = {},
): Promise<{ kept: string[]; dropped: number; unchecked: number }> {
  const held = new Map<string, HeldDir | undefined>();
  const kept: string[] = [];
  let dropped = 0;
  try {
    for (const [index, path] of paths.entries()) {
      if (outOfTime(budget)) return { kept, dropped, unchecked: paths.length - index };
      let accepted = false;
      try {
        const where = await workspace.resolve(path, 'read');
        // The listing never goes through links, so a path the gate maps elsewhere changed during the walk.
        if (where.ok && where.kind === 'file' && where.relative === path) {
          const dir = dirname(where.path);
          if (!held.has(dir)) held.set(dir, holdDir(dir));
          const parent = held.get(dir);
          accepted = parent !== undefined && (entryIn(parent, basename(where.path))?.isFile() ?? false);
        }
      } catch {
        // a path the gate could not check is never shown
      }
      if (accepted) kept.push(path);
      else dropped++;
    }
    return { kept, dropped, unchecked: 0 };
  } finally {
    for (const dir of held.values()) if (dir) closeSync(dir.fd);
  }
}
