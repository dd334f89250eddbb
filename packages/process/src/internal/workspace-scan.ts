import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isProtectedName, type ProtectedNamePolicy } from '@bough/workspace';
import type { DenyMatchers } from './deny-rules.js';

/** An entry found by the scan, with the identity it had (dev and inode: a replaced file gets a new one). */
export interface ScannedEntry {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
  readonly kind: 'file' | 'dir' | 'link' | 'other';
}

/** What the sandbox needs to know about a workspace before (and after) a command. */
export interface WorkspaceScan {
  /** Regular files with a protected name, or matched by a deny-read rule (covered by the blank file). */
  readonly hiddenFiles: ScannedEntry[];
  /** Directories with a protected name, or matched by a deny-read rule (covered by an empty, unreadable tmpfs). */
  readonly hiddenDirs: ScannedEntry[];
  /** Files and directories matched by a deny-write rule (bound read-only onto themselves). */
  readonly readOnly: ScannedEntry[];
  /** Every entry named `.git` (directory, file or link), and every directory git would take for a bare repository. */
  readonly git: ScannedEntry[];
  /** True when the entry budget ran out before the whole tree was seen. */
  readonly partial: boolean;
}

/**
 * One bounded walk of the workspace (links are not followed, the inside of `.git` is not entered) that finds what
 * the sandbox hides, keeps read-only and watches: protected names, deny-rule matches and git directories. A
 * directory that is hidden or read-only as a whole is not entered either.
 */
export function scanWorkspace(
  root: string,
  policy: ProtectedNamePolicy | undefined,
  deny: DenyMatchers,
  maxEntries: number,
): WorkspaceScan {
  const scan: WorkspaceScan = { hiddenFiles: [], hiddenDirs: [], readOnly: [], git: [], partial: false };
  let budget = maxEntries;
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    if (looksLikeGitDir(entries)) push(scan.git, dir, 'dir');
    for (const entry of entries) {
      if (--budget < 0) return { ...scan, partial: true };
      const path = join(dir, entry.name);
      const kind = entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : entry.isSymbolicLink() ? 'link' : 'other';
      if (entry.name === '.git') {
        push(scan.git, path, kind);
        continue;
      }
      // Without deny rules (the common case) no entry needs its path relative to the root.
      const rel = deny.any ? relative(root, path) : '';
      const hidden = isProtectedName(entry.name, policy) || (deny.any && deny.read(rel));
      if (hidden && kind === 'dir') push(scan.hiddenDirs, path, kind);
      else if (hidden && kind === 'file') push(scan.hiddenFiles, path, kind);
      else if (deny.any && deny.write(rel) && (kind === 'dir' || kind === 'file')) push(scan.readOnly, path, kind);
      else if (kind === 'dir') pending.push(path);
    }
  }
  return scan;
}

/** git's own test for a repository directory (`is_git_directory`): HEAD, objects and refs side by side. */
function looksLikeGitDir(entries: readonly Dirent[]): boolean {
  const names = new Set(entries.map((entry) => entry.name));
  return names.has('HEAD') && names.has('objects') && names.has('refs');
}

function push(list: ScannedEntry[], path: string, kind: ScannedEntry['kind']): void {
  try {
    const st = lstatSync(path);
    list.push({ path, dev: st.dev, ino: st.ino, kind });
  } catch {
    // removed between the listing and the look; nothing left to cover
  }
}
