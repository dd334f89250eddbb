import { lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode, quotePath, type WorkspaceFailure, workspaceFailure } from '../errors.js';

/**
 * Creates `names` one level at a time below the real directory `base`; each level is confirmed to be a real directory
 * (never a link) before the next is made inside it, so no mkdir ever lands through a symlink.
 */
export async function mkdirChain(
  base: string,
  names: readonly string[],
  input: string,
): Promise<{ ok: true; path: string } | WorkspaceFailure> {
  let current = base;
  for (const name of names) {
    const next = join(current, name);
    try {
      await mkdir(next, 0o777);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') {
        return workspaceFailure(
          'io_error',
          `Could not create directory ${quotePath(input)} (${errnoCode(error) ?? 'unknown error'}).`,
        );
      }
    }
    let st: Awaited<ReturnType<typeof lstat>>;
    try {
      st = await lstat(next);
    } catch {
      return workspaceFailure('changed_during_check', `A directory on the way to ${quotePath(input)} vanished; retry.`);
    }
    if (st.isSymbolicLink()) {
      return workspaceFailure(
        'changed_during_check',
        `A directory on the way to ${quotePath(input)} was replaced by a symbolic link while it was being created; nothing was written.`,
      );
    }
    if (!st.isDirectory()) {
      return workspaceFailure(
        'not_a_directory',
        `A file is in the way of directory ${quotePath(input)}; check the path.`,
      );
    }
    current = next;
  }
  return { ok: true, path: current };
}
