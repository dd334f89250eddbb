import { existsSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { isWithin } from './bwrap-args.js';
import { type ControlRecord, configuredPaths, recordControl, recordPath } from './git-control.js';
import { bornSince, makeDir, remove, restore, safeParent, tryRename } from './git-restore.js';
import type { ScannedEntry } from './workspace-scan.js';

// Nothing a sandboxed command leaves behind may run later on the host through git. Two layers, because neither is
// enough alone:
// 1. Mounts, so the usual routes fail while the command runs (the host's editor may run git meanwhile): every git
//    directory found is bound onto itself, which makes it a mount point that cannot be renamed or removed (EBUSY;
//    renaming `.git` aside and copying it back was the attack), and its existing hooks, config, info, commondir,
//    gitdir, worktrees and modules are bound read-only, as are `.git` files and the paths the repository's config
//    names (core.hooksPath, include.path, core.attributesFile).
// 2. A before/after comparison of every git directory (by identity, so a repository moved with its parent is still
//    known) and of its control files, because mounts cannot stop what did not exist at the start: a new `.git`
//    anywhere (nested repository, `gitdir:` file, link), a directory turned into a bare repository, a hooks
//    directory, `commondir`, `config.worktree` or `objects/info/alternates` that was missing. After the command
//    every such change is undone: new `.git` entries are removed, a new bare repository loses its HEAD (renamed
//    aside, so git no longer takes the directory for a repository), changed control files get their recorded
//    content back and new ones are removed. The result says what was undone.
const MOUNTED_CONTROL = ['hooks', 'config', 'info', 'commondir', 'gitdir', 'config.worktree', 'worktrees', 'modules'];

interface KnownGit {
  readonly entry: ScannedEntry;
  readonly control: ControlRecord;
}

/** The git state of a workspace when a command starts, with the mounts that protect it. */
export interface GitGuard {
  /** bwrap arguments, to follow the workspace's own bind. */
  readonly binds: string[];
  /** True when a recording was cut short by its bounds (the result says the check was partial). */
  readonly partial: boolean;
  /**
   * Compares with the workspace after the command and undoes what could run later; a note when anything was.
   * `partial`: a scan did not see the whole tree, so a git entry it did not know may be an old one it never reached;
   * such an entry is then only treated as new when the file system says it was born during the command.
   */
  repair(after: readonly ScannedEntry[], partial: boolean): string | undefined;
}

/** Records the git directories a scan found and builds their mounts. */
export function guardGit(root: string, found: readonly ScannedEntry[]): GitGuard {
  // Birth times are set from a coarse kernel clock; the margin keeps a command's own entries on the "new" side.
  const startedAt = Date.now() - 100;
  const known = new Map<string, KnownGit>();
  const binds: string[] = [];
  const extras = new Map<string, ControlRecord>();
  let partial = false;
  for (const entry of found) {
    if (entry.kind === 'dir') {
      // A missing hooks or info directory could be created while the command runs, and the host's editor might run
      // git before the after-command check removes it; an empty one made now is mounted read-only instead.
      if (basename(entry.path) === '.git') for (const name of ['hooks', 'info']) makeDir(join(entry.path, name));
      const control = recordControl(entry.path);
      partial ||= control.partial;
      known.set(key(entry), { entry, control });
      if (entry.path !== root) binds.push('--bind', entry.path, entry.path);
      for (const name of MOUNTED_CONTROL) {
        const path = join(entry.path, name);
        if (existsSync(path)) binds.push('--ro-bind', path, path);
      }
      const workTree = basename(entry.path) === '.git' ? dirname(entry.path) : entry.path;
      for (const path of configuredPaths(entry.path, workTree)) {
        if (!isWithin(path, root) || extras.has(path)) continue;
        extras.set(path, recordPath(path));
        if (existsSync(path)) binds.push('--ro-bind', path, path);
      }
    } else {
      known.set(key(entry), { entry, control: recordPath(entry.path) });
      if (entry.kind === 'file') binds.push('--ro-bind', entry.path, entry.path);
    }
  }
  return {
    binds,
    partial,
    repair: (after, partialScan) => repairGit(root, known, extras, after, partialScan ? startedAt : undefined),
  };
}

function key(entry: ScannedEntry): string {
  return `${entry.kind}:${entry.dev}:${entry.ino}`;
}

function repairGit(
  root: string,
  known: Map<string, KnownGit>,
  extras: Map<string, ControlRecord>,
  after: readonly ScannedEntry[],
  bornAfter: number | undefined,
): string | undefined {
  const undone: string[] = [];
  const failed: string[] = [];
  const show = (path: string) => JSON.stringify(relative(root, path) || '.');
  for (const entry of after) {
    const before = known.get(key(entry));
    // A bare repository is made by adding HEAD (with objects and refs) to a directory that may be old.
    const made = basename(entry.path) === '.git' ? entry.path : join(entry.path, 'HEAD');
    if (!before && bornAfter !== undefined && !bornSince(made, bornAfter)) continue;
    if (!before) {
      if (basename(entry.path) === '.git') {
        if (remove(root, entry.path)) undone.push(`removed the new git repository ${show(entry.path)}`);
        else failed.push(show(entry.path));
      } else {
        const head = join(entry.path, 'HEAD');
        if (safeParent(root, head) && tryRename(head, `${head}.disabled-by-sandbox`)) {
          undone.push(`disabled the new bare repository ${show(entry.path)} (its HEAD was renamed)`);
        } else failed.push(show(entry.path));
      }
      continue;
    }
    const now = before.entry.kind === 'dir' ? recordControl(entry.path) : recordPath(entry.path);
    const changes = restore(root, entry.path, before.control, now);
    if (changes.changed > 0) undone.push(`restored ${changes.changed} git control file(s) in ${show(entry.path)}`);
    failed.push(...changes.failed.map(show));
  }
  for (const [path, record] of extras) {
    const changes = restore(root, path, record, recordPath(path));
    if (changes.changed > 0) undone.push(`restored ${show(path)}, which the repository's git config runs or reads`);
    failed.push(...changes.failed.map(show));
  }
  if (undone.length === 0 && failed.length === 0) return undefined;
  let note = `The command changed what git would run or read outside the sandbox; this was undone: ${undone.join('; ')}.`;
  if (failed.length > 0) {
    note += ` Could not undo changes at ${failed.join(', ')}: do not run git in this workspace before checking them.`;
  }
  return note;
}
