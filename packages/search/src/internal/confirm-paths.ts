import { basename, dirname } from 'node:path';
import type { Workspace } from '@bough/workspace';
import { HeldParents } from '@bough/workspace/internal';
import { type ConfirmBudget, outOfTime } from './verify-results.js';

/**
 * Keeps only the listed paths that are regular files inside the workspace now. The gate checks names, containment
 * and links along the path, but it looks each component up by path, so a directory swapped for a link between two of
 * its lookups could make a name from outside pass. Each kept path is therefore also looked up in its parent directory
 * held open and proven to be the real, inside directory the gate returned: a name read there is a name in the
 * workspace. The parent directory is what the gate checks, once per directory (listings hold many files per
 * directory): it must come back as itself, a real directory, and be held and proven; the file's own name is then
 * looked up in it (never followed if a link, refused if protected) and must be a regular file. Where a held directory
 * cannot look names up through its descriptor, or a path is not plain, the path goes through the gate by itself.
 * Paths are decided in order; when the budget runs out the rest are left out and counted as unchecked.
 */
export async function confirmPaths(
  workspace: Workspace,
  paths: readonly string[],
  budget: ConfirmBudget = {},
): Promise<{ kept: string[]; dropped: number; unchecked: number }> {
  const dirs = new HeldParents(workspace);
  const kept: string[] = [];
  let dropped = 0;
  try {
    for (const [index, path] of paths.entries()) {
      if (outOfTime(budget)) return { kept, dropped, unchecked: paths.length - index };
      let accepted = false;
      try {
        const parent = await dirs.parentOf(path);
        if (parent.kind === 'held') accepted = parent.dir.entry(parent.name)?.isFile() ?? false;
        else if (parent.kind === 'unproven') accepted = await confirmAlone(workspace, path, dirs);
      } catch {
        // a path the gate could not check is never shown
      }
      if (accepted) kept.push(path);
      else dropped++;
    }
    return { kept, dropped, unchecked: 0 };
  } finally {
    dirs.close();
  }
}

/** One path through the gate by itself, then looked up in its held parent directory. */
async function confirmAlone(workspace: Workspace, path: string, dirs: HeldParents): Promise<boolean> {
  const where = await workspace.resolve(path, 'read');
  // The listing never goes through links, so a path the gate maps elsewhere changed during the walk.
  if (!where.success || where.kind !== 'file' || where.relative !== path) return false;
  return dirs.hold(dirname(where.path))?.entry(basename(where.path))?.isFile() ?? false;
}
