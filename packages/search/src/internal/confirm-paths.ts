import { basename, dirname } from 'node:path';
import type { HeldDir, Workspace } from '@bough/workspace';
import { type ConfirmBudget, outOfTime } from './verify-results.js';

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
        if (where.success && where.kind === 'file' && where.relative === path) {
          const dir = dirname(where.path);
          if (!held.has(dir)) held.set(dir, workspace.holdDirSync(dir));
          const parent = held.get(dir);
          accepted = parent?.entry(basename(where.path))?.isFile() ?? false;
        }
      } catch {
        // a path the gate could not check is never shown
      }
      if (accepted) kept.push(path);
      else dropped++;
    }
    return { kept, dropped, unchecked: 0 };
  } finally {
    for (const dir of held.values()) dir?.close();
  }
}
