import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { type Touches, touchedPaths } from '@bough/core';

/**
 * The strings path rules are matched against for one call: every path its tool declares it touches (`Tool.touches`),
 * relative to the workspace root with forward slashes (`.` for the root itself and for a touch of the whole
 * workspace), or absolute when it lies outside the root (the tool refuses those itself). With `followLinks`, when a
 * path goes through a symbolic link the place it leads to is a subject as well, so a link cannot carry a call past a
 * rule.
 *
 * @param touches what the call touches, as its tool declared it
 * @param root the workspace root relative paths are resolved against; without it paths are only tidied
 * @param followLinks also resolve links on disk (default true; one `realpath` per path)
 */
export function pathSubjects(touches: Touches, root?: string, followLinks = true): string[] {
  const out = new Set<string>();
  const paths = touchedPaths(touches);
  if (touches.workspace === true) paths.push('.');
  for (const path of paths) {
    if (root === undefined) {
      out.add(tidy(path));
      continue;
    }
    const simple = plainRelative(path);
    const absolute = simple ? `${root}/${path}` : resolve(root, path);
    out.add(simple ? path : inRoot(root, absolute));
    if (!followLinks) continue;
    const real = realOf(absolute);
    const realRoot = rootReal(root);
    if (real !== undefined && realRoot !== undefined) out.add(inRoot(realRoot, real));
  }
  return [...out];
}

// A relative path with no `.`/`..`/empty segment and no backslash is already in the form rules see (the common case:
// skipping resolve/relative keeps the check cheap).
const PLAIN = /^(?!\.\.?(?:\/|$))(?!.*\/\.\.?(?:\/|$))(?!.*\/\/)[^/\\][^\\]*(?<!\/)$/;
const plainRelative = (path: string) => sep === '/' && PLAIN.test(path);

/** A path relative to `root` with forward slashes, `.` for the root, or the absolute path when outside it. */
function inRoot(root: string, absolute: string): string {
  if (absolute.startsWith(`${root}/`) && sep === '/') {
    const rest = absolute.slice(root.length + 1);
    if (plainRelative(rest)) return rest;
  }
  const rel = relative(root, absolute);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return absolute;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** Without a root: `./a//b/` → `a/b`, `` → `.`. */
function tidy(path: string): string {
  const normal = posix.normalize(path.replace(/\\/g, '/'));
  const trimmed = normal.length > 1 ? normal.replace(/\/+$/, '') : normal;
  return trimmed === '' ? '.' : trimmed;
}

// The real path of each root seen (roots are few and do not move while served).
const realRoots = new Map<string, string | undefined>();

function rootReal(root: string): string | undefined {
  if (realRoots.has(root)) return realRoots.get(root);
  const real = realOf(root);
  if (realRoots.size > 64) realRoots.clear();
  if (real !== undefined) realRoots.set(root, real);
  return real;
}

/** The real path of `path`, or of its deepest existing ancestor with the rest appended; undefined when none exists. */
function realOf(path: string): string | undefined {
  const rest: string[] = [];
  let head = path;
  for (;;) {
    try {
      const real = realpathSync.native(head);
      return rest.length === 0 ? real : join(real, ...rest.reverse());
    } catch {
      const parent = dirname(head);
      if (parent === head) return undefined;
      rest.push(basename(head));
      head = parent;
    }
  }
}
