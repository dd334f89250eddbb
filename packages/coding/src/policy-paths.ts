import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { type Touches, touchedPaths } from '@bough/core';
import { linkedPathSync } from '@bough/workspace/internal';

/**
 * The strings path rules are matched against for one call: every path its tool declares it touches (`Tool.touches`),
 * relative to the workspace root with forward slashes (`.` for the root itself and for a touch of the whole
 * workspace), or absolute when it lies outside the root (the tool refuses those itself). With `followLinks`, when a
 * path goes through a symbolic link the place it leads to is a subject as well, so a link cannot carry a call past a
 * rule.
 *
 * @param touches what the call touches, as its tool declared it
 * @param root the workspace root relative paths are resolved against; without it paths are only tidied
 * @param followLinks also follow links on disk (default true; one `lstat` per component of each path, as the gate does)
 */
export function pathSubjects(touches: Touches, root?: string, followLinks = true): string[] {
  const only = singlePath(touches);
  const paths = only !== undefined ? [only] : touchedPaths(touches);
  if (only === undefined && touches.workspace === true) paths.push('.');
  const out: string[] = [];
  const realRoot = root !== undefined && followLinks ? rootReal(root) : undefined;
  for (const path of paths) {
    if (root === undefined) {
      addOnce(out, tidy(path));
      continue;
    }
    const subject = plainRelative(path) ? path : inRoot(root, resolve(root, path));
    addOnce(out, subject);
    if (realRoot === undefined) continue;
    // The place a link on the way leads to is a subject as well: inside the root found by the workspace gate's own
    // walk (one lstat per component, nothing when no link is met); a path outside may be an alias of a place inside
    // (a linked temporary directory), which the gate accepts, so it is resolved in full.
    const linked = isAbsolute(subject)
      ? aliasOf(realRoot, subject)
      : linkedPathSync(realRoot, subject, isCreated(touches, path));
    if (linked !== undefined) addOnce(out, linked);
  }
  return out;
}

/** The one path of a declaration that names exactly one (the common call: a read, a write), else undefined. */
function singlePath(touches: Touches): string | undefined {
  let found: string | undefined;
  let count = 0;
  for (const list of [touches.read, touches.write, touches.create, touches.delete]) {
    if (list === undefined) continue;
    count += list.length;
    if (list.length > 0) found = list[0];
  }
  if (touches.move !== undefined && touches.move.length > 0) return undefined;
  if (touches.cwd !== undefined) {
    count++;
    found = touches.cwd;
  }
  return count === 1 && touches.workspace !== true ? found : undefined;
}

/** A path the call creates (it most likely does not exist yet, so its lookup starts from its existing part). */
function isCreated(touches: Touches, path: string): boolean {
  return touches.create?.includes(path) === true || touches.move?.some((move) => move.to === path) === true;
}

function addOnce(out: string[], subject: string): void {
  if (!out.includes(subject)) out.push(subject);
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

/** Where an absolute path really lies, relative to the real root when inside it; undefined when nothing of it exists. */
function aliasOf(realRoot: string, absolute: string): string | undefined {
  const real = realOf(absolute);
  return real === undefined ? undefined : inRoot(realRoot, real);
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
