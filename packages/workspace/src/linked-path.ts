import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { isInside } from './inside.js';
import { childPath } from './internal/paths.js';

/**
 * Where `path` leads when a symbolic link on the way takes it somewhere else: the real path relative to `root`
 * (forward slashes, `.` for the root itself), or the absolute real path when the link leads out of `root`. Undefined
 * when no link is on the way (the common case), so the caller keeps the path as asked.
 *
 * It gives the answer of the gate's walk ({@link Workspace.resolve}) for every path the gate lets through: links on
 * the way followed, and nothing looked up below the deepest component that exists (no link can lie there; a dangling
 * link, which the gate refuses, leads nowhere to match). An existing path costs one `realpath` (a path that is its
 * own real path met no link); with `missing`, or when that fails, existence is checked from the end first, so a
 * path that does not exist yet (a file about to be created) costs no thrown error. It never throws and opens nothing:
 * for checks that match rules against paths before a tool runs (a permission policy); the tool's own pass through
 * the gate still decides what may be opened.
 *
 * @param root the real path of the workspace root (as `Workspace.root` holds it)
 * @param path a path relative to `root` made of plain names (`src/a.ts`, no empty, `.` or `..` component); anything
 *   else answers undefined, as does a platform whose separator is not `/`
 * @param missing the path is expected not to exist yet (a create): skip the first, failing `realpath`
 */
export function linkedPathSync(root: string, path: string, missing = false): string | undefined {
  if (!isPlain(path)) return undefined;
  const asked = childPath(root, path);
  if (!missing) {
    const real = realOf(asked);
    if (real !== undefined) return real === asked ? undefined : relativeOrAbsolute(root, real);
  }
  const parts = path.split('/');
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

/** The test of the gate's `plainParts` without splitting: plain names only, checked without building a list (this runs per call). */
function isPlain(path: string): boolean {
  if (sep !== '/' || path === '' || path === '.' || path === '..') return false;
  if (path.startsWith('/') || path.endsWith('/') || path.includes('//')) return false;
  if (path.startsWith('./') || path.startsWith('../') || path.endsWith('/.') || path.endsWith('/..')) return false;
  return !path.includes('/./') && !path.includes('/../');
}

function realOf(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

function relativeOrAbsolute(root: string, absolute: string): string {
  if (!isInside(root, absolute)) return absolute;
  const rel = relative(root, absolute);
  if (rel === '') return '.';
  if (isAbsolute(rel)) return absolute;
  return sep === '/' ? rel : rel.split(sep).join('/');
}
