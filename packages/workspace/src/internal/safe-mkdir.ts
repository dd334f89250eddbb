import { lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { errnoCode, quotePath, type WorkspaceFailure, workspaceFailure } from '../errors.js';
import { pinDir } from './pinned-dir.js';

const swapped = (input: string) =>
  workspaceFailure(
    'changed_during_check',
    `A directory on the way to ${quotePath(input)} was replaced while it was being created; nothing more was made. Retry.`,
  );

/**
 * Creates `names` one level at a time below the real directory `base`. Each level is made inside a directory held
 * open by descriptor and confirmed to be a real directory (never a link) before the next, so no mkdir lands elsewhere.
 */
export async function mkdirChain(
  base: string,
  names: readonly string[],
  input: string,
): Promise<{ success: true; path: string } | WorkspaceFailure> {
  let current = base;
  for (const name of names) {
    const pinned = await pinDir(current);
    if (!pinned) return swapped(input);
    try {
      const inside = join(pinned.prefix, name);
      // Synchronous, like the resolver's lstat: making a directory entry is answered from memory, where the promise
      // form costs two thread-pool round trips per level.
      try {
        mkdirSync(inside, 0o777);
      } catch (error) {
        if (errnoCode(error) !== 'EEXIST') {
          return workspaceFailure(
            'io_error',
            `Could not create directory ${quotePath(input)} (${errnoCode(error) ?? 'unknown error'}).`,
          );
        }
      }
      let st: ReturnType<typeof lstatSync>;
      try {
        st = lstatSync(inside);
      } catch {
        st = undefined;
      }
      if (!st || st.isSymbolicLink()) return swapped(input);
      if (!st.isDirectory()) {
        return workspaceFailure(
          'not_a_directory',
          `A file is in the way of directory ${quotePath(input)}; check the path.`,
        );
      }
    } finally {
      await pinned.close();
    }
    current = join(current, name);
  }
  return { success: true, path: current };
}
