import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isWorkspaceFailure, type LinkRule, Workspace } from '@bough/workspace';
import { type ProcessFailure, processFailure } from '../failure.js';

/**
 * Turns the requested working directory into a real, existing directory; with a workspace root, one that
 * `@bough/workspace` accepts for listing.
 */
export async function resolveCwd(
  cwd: string | undefined,
  workspaceRoot: string | undefined,
  linkRule?: LinkRule,
): Promise<string | ProcessFailure> {
  if (cwd !== undefined && (typeof cwd !== 'string' || cwd === '' || cwd.includes('\0'))) {
    return processFailure('invalid_cwd', 'cwd must be a non-empty directory path without NUL characters.');
  }
  if (workspaceRoot !== undefined) return resolveInRoot(cwd, workspaceRoot, linkRule);
  const requested = cwd === undefined ? process.cwd() : resolve(process.cwd(), cwd);
  const real = realDirectory(requested);
  if (real === undefined) return missing(cwd);
  return real;
}

/**
 * With a workspace root, the cwd goes through the same gate as every other path (`list` intent): lexical and real
 * containment, no symlinked final component, no protected directory, and `linkRule` on where a link on the way leads.
 * Its refusal codes pass through unchanged.
 */
async function resolveInRoot(
  cwd: string | undefined,
  workspaceRoot: string,
  linkRule: LinkRule | undefined,
): Promise<string | ProcessFailure> {
  let workspace: Workspace;
  try {
    // The synchronous twin answers the same realpath and stat from kernel caches, without two thread-pool round trips.
    workspace = Workspace.openSync(workspaceRoot, linkRule ? { linkRule } : {});
  } catch {
    return processFailure(
      'invalid_cwd',
      'The workspace root is not an existing directory, so no command can run in it.',
    );
  }
  // The default cwd is the root itself, which opening just found to be a real, existing directory: nothing to add.
  if (cwd === undefined) return workspace.root;
  const where = await workspace.resolve(cwd, 'list');
  if (isWorkspaceFailure(where)) return processFailure(where.error_code, where.error);
  return where.path;
}

function missing(cwd: string | undefined): ProcessFailure {
  return processFailure(
    'invalid_cwd',
    `The working directory ${JSON.stringify(cwd ?? '.')} does not exist or is not a directory. Pick an existing directory (relative paths start at the workspace root).`,
  );
}

// Two synchronous metadata lookups (the same realpath(3) the promise API runs on the thread pool): answered from
// kernel caches, they cost far less than two thread-pool round trips on every spawn.
function realDirectory(path: string): string | undefined {
  try {
    const real = realpathSync.native(path);
    return statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}
