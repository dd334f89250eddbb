import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { type ProcessFailure, processFailure } from '../failure.js';

/** True when `child` (a real path) is `root` or lies below it; compares with `path.relative`, never a string prefix. */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Turns the requested working directory into a real, existing directory, and when a workspace root is given, one
 * inside it (symlinks resolved on both sides before comparing).
 */
export async function resolveCwd(
  cwd: string | undefined,
  workspaceRoot: string | undefined,
): Promise<string | ProcessFailure> {
  if (cwd !== undefined && (typeof cwd !== 'string' || cwd === '' || cwd.includes('\0'))) {
    return processFailure('invalid_cwd', 'cwd must be a non-empty directory path without NUL characters.');
  }
  let rootReal: string | undefined;
  if (workspaceRoot !== undefined) {
    rootReal = await realDirectory(workspaceRoot);
    if (rootReal === undefined) {
      return processFailure(
        'invalid_cwd',
        'The workspace root is not an existing directory, so no command can run in it.',
      );
    }
  }
  const requested = cwd === undefined ? (workspaceRoot ?? process.cwd()) : resolve(workspaceRoot ?? process.cwd(), cwd);
  // Lexical check first, so a path outside is refused the same way whether or not it exists (no existence oracle).
  if (rootReal !== undefined && workspaceRoot !== undefined) {
    if (!isInside(resolve(workspaceRoot), requested) && !isInside(rootReal, requested)) return outside(cwd);
  }
  const real = await realDirectory(requested);
  if (real === undefined) {
    return processFailure(
      'invalid_cwd',
      `The working directory ${JSON.stringify(cwd ?? '.')} does not exist or is not a directory. Pick an existing directory (relative paths start at the workspace root).`,
    );
  }
  if (rootReal !== undefined && !isInside(rootReal, real)) return outside(cwd);
  return real;
}

function outside(cwd: string | undefined): ProcessFailure {
  return processFailure(
    'outside_workspace',
    `The working directory ${JSON.stringify(cwd ?? '.')} is outside the workspace. Use a directory inside the workspace root (a relative path is resolved from it).`,
  );
}

async function realDirectory(path: string): Promise<string | undefined> {
  try {
    const real = await realpath(path);
    return (await stat(real)).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}
