import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { childPath, isInside, plainParts, posixRelative } from './internal/paths.js';

/**
 * A path as the gate names it relative to `root`, on the names alone: forward slashes, `.` for the root itself, the
 * normal form of `./a//b` or `src/../a` (`a/b`, `a`), or the absolute normal path when it lies outside `root`. A
 * relative path made of plain names is its own answer, without path arithmetic (the common request).
 *
 * @param root an absolute directory (the workspace root as given or real; links are not followed)
 * @param path relative to `root`, or absolute
 */
export function rootRelative(root: string, path: string): string {
  if (!isAbsolute(path) && plainParts(path) !== undefined) return path;
  const absolute = resolve(root, path);
  return isInside(root, absolute) ? posixRelative(root, absolute) : absolute;
}

/**
 * Where `path` leads when a symbolic link on the way takes it somewhere else: the real path relative to `root`
 * (forward slashes, `.` for the root itself), or the absolute real path when the link leads out of `root`. Undefined
 * when no link is on the way (the common case), so the caller keeps the path as asked.
 *
 * It gives the answer of the gate's walk ({@link Workspace.resolve}) for every path the gate lets through: links on
 * the way followed, and nothing looked up below the deepest component that exists (no link can lie there; a dangling
 * link, which the gate refuses, leads nowhere to match). An existing path costs one `realpath` (a path that is its
 * own real path met no link); with `missing`, or when that fails, existence is checked from the end first, so a
 * path that does not exist yet (a file about to be created) costs no thrown error. An absolute path (an alias of a
 * place inside the root, such as a linked temporary directory) is resolved in full the same way. It never throws and
 * opens nothing: for checks that match rules against paths before a tool runs (a permission policy); the tool's own
 * pass through the gate still decides what may be opened.
 *
 * @param root the real path of the workspace root (as `Workspace.root` holds it)
 * @param path an absolute path, or a path relative to `root` made of plain names (`src/a.ts`, no empty, `.` or `..`
 *   component: {@link rootRelative} gives that form); any other answers undefined, as does a platform whose separator
 *   is not `/`
 * @param missing the path is expected not to exist yet (a create): skip the first, failing `realpath`
 */
export function linkedPathSync(root: string, path: string, missing = false): string | undefined {
  if (isAbsolute(path)) return whereAbsolute(root, path);
  const parts = plainParts(path);
  if (parts === undefined) return undefined;
  const asked = childPath(root, path);
  if (!missing) {
    const real = realOf(asked);
    if (real !== undefined) return real === asked ? undefined : relativeOrAbsolute(root, real);
  }
  // The deepest part that exists: only it can have links on its way (the root itself is real).
  for (let depth = missing ? parts.length : parts.length - 1; depth > 0; depth--) {
    const whole = depth === parts.length;
    const head = whole ? asked : childPath(root, parts.slice(0, depth).join('/'));
    if (!existsSync(head)) continue;
    const real = realOf(head);
    if (real === undefined || real === head) return undefined;
    return relativeOrAbsolute(root, whole ? real : `${real}/${parts.slice(depth).join('/')}`);
  }
  return undefined;
}

/** The real place of an absolute path (its deepest existing ancestor resolved, the rest appended), if it differs. */
function whereAbsolute(root: string, path: string): string | undefined {
  const rest: string[] = [];
  let head = path;
  for (;;) {
    const real = realOf(head);
    if (real !== undefined) {
      const where = relativeOrAbsolute(root, rest.length === 0 ? real : join(real, ...rest.reverse()));
      // Inside the root the answer is relative, so an absolute spelling of a place inside is always told where it is.
      return where === path ? undefined : where;
    }
    const parent = dirname(head);
    if (parent === head) return undefined;
    rest.push(basename(head));
    head = parent;
  }
}

function realOf(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

function relativeOrAbsolute(root: string, absolute: string): string {
  return isInside(root, absolute) ? posixRelative(root, absolute) : absolute;
}
