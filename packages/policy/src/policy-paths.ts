import { realpathSync } from 'node:fs';
import { posix } from 'node:path';
import { type Touches, touchedPaths } from '@bough/core';
import { linkedPathSync, rootRelative } from '@bough/workspace/internal';

/**
 * The strings path rules are matched against for one call: every path its tool declares it touches (`Tool.touches`),
 * relative to the workspace root with forward slashes (`.` for the root itself and for a touch of the whole
 * workspace), or absolute when it lies outside the root (the tool refuses those itself). With `followLinks`, when a
 * path goes through a symbolic link the place it leads to is a subject as well, so a link cannot carry a call past a
 * rule. The paths are named and followed as the workspace gate does (`rootRelative`, `linkedPathSync`).
 *
 * @param touches what the call touches, as its tool declared it
 * @param root the workspace root relative paths are resolved against; without it paths are only tidied
 * @param followLinks also follow links on disk (default true; one `realpath` of each path)
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
    const subject = rootRelative(root, path);
    addOnce(out, subject);
    if (realRoot === undefined) continue;
    // The place a link on the way leads to is a subject as well; a path outside may be an alias of a place inside
    // (a linked temporary directory), which the gate accepts, so it is resolved in full.
    const linked = linkedPathSync(realRoot, subject, isCreated(touches, path));
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

/** Without a root: `./a//b/` → `a/b`, `` → `.`. */
function tidy(path: string): string {
  const normal = posix.normalize(path.replace(/\\/g, '/'));
  const trimmed = normal.length > 1 ? normal.replace(/\/+$/, '') : normal;
  return trimmed === '' ? '.' : trimmed;
}

// The real path of each root seen (roots are few and do not move while served).
const realRoots = new Map<string, string | undefined>();

function rootReal(root: string): string | undefined {
  if (!realRoots.has(root)) {
    if (realRoots.size > 64) realRoots.clear();
    try {
      realRoots.set(root, realpathSync.native(root));
    } catch {
      return undefined;
    }
  }
  return realRoots.get(root);
}
