import { lstatSync, mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isWithin } from './bwrap-args.js';
import { type ControlEntry, type ControlRecord, differs } from './git-control.js';

// The host-side file changes of the git guard. The sandboxed command has ended when they run, but the tree is what it
// left: every change checks that the parent directory's real path is inside the workspace, and none follows a link.

/** Puts every recorded entry of `base` back and removes the entries that appeared under it. */
export function restore(
  root: string,
  base: string,
  before: ControlRecord,
  now: ControlRecord,
): { changed: number; failed: string[] } {
  const at = (rel: string) => (rel === '' ? base : join(base, rel));
  let changed = 0;
  const failed: string[] = [];
  // Removals first, deepest first; then re-creations, shallowest first.
  const added = [...now.entries.keys()].filter((rel) => !before.entries.has(rel)).sort((a, b) => b.length - a.length);
  for (const rel of added) {
    if ([...added].some((other) => other !== rel && rel.startsWith(`${other}/`))) continue;
    if (remove(root, at(rel))) changed++;
    else failed.push(at(rel));
  }
  const back = [...before.entries.entries()].sort(([a], [b]) => a.length - b.length);
  for (const [rel, was] of back) {
    const is = now.entries.get(rel);
    if (is && !differs(was, is)) continue;
    if (is && was.kind === 'dir' && is.kind === 'dir') continue;
    if (put(root, at(rel), was, is !== undefined)) changed++;
    else failed.push(at(rel));
  }
  return { changed, failed };
}

function put(root: string, path: string, entry: ControlEntry, exists: boolean): boolean {
  if (!safeParent(root, path)) return false;
  try {
    if (exists) rmSync(path, { recursive: true, force: true });
    if (entry.kind === 'dir') mkdirSync(path, { mode: entry.mode });
    else if (entry.kind === 'link') symlinkSync(entry.target as string, path);
    else if (entry.kind === 'file') writeFileSync(path, entry.content as Buffer, { mode: entry.mode, flag: 'wx' });
    else return false;
    return true;
  } catch {
    return false;
  }
}

export function remove(root: string, path: string): boolean {
  if (!safeParent(root, path)) return false;
  try {
    lstatSync(path);
  } catch {
    return true;
  }
  try {
    rmSync(path, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}

/** True when the file system says `path` was created at or after `time` (false when it keeps no birth time). */
export function bornSince(path: string, time: number): boolean {
  try {
    const born = lstatSync(path).birthtimeMs;
    return born > 0 && born >= time;
  } catch {
    return false;
  }
}

export function makeDir(path: string): void {
  try {
    mkdirSync(path, { mode: 0o755 });
  } catch {
    // it exists (the usual case), or cannot be made: the after-command check still covers it
  }
}

export function tryRename(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch {
    return false;
  }
}

/**
 * The host changes files here, so a parent directory swapped for a link must not lead it outside: the parent's real
 * path has to be inside the workspace (rmSync and the `wx` write never follow the final component).
 */
export function safeParent(root: string, path: string): boolean {
  try {
    return isWithin(realpathSync.native(dirname(path)), root) && dirname(path) !== path;
  } catch {
    return false;
  }
}
