import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isProtectedName, type ProtectedNamePolicy } from '@bough/workspace';

/** The protected files and directories found under a root. */
export interface ProtectedScan {
  /** Absolute paths of regular files with a protected name. */
  readonly files: string[];
  /** Absolute paths of directories with a protected name (their whole content is hidden). */
  readonly dirs: string[];
  /** True when the entry budget ran out before the whole tree was seen. */
  readonly partial: boolean;
}

/**
 * Walks the workspace (without following links, skipping the inside of `.git`) for entries whose name is
 * protected, looking at no more than `maxEntries` entries.
 */
export function scanProtected(
  root: string,
  policy: ProtectedNamePolicy | undefined,
  maxEntries: number,
): ProtectedScan {
  const files: string[] = [];
  const dirs: string[] = [];
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
    for (const entry of entries) {
      if (--budget < 0) return { files, dirs, partial: true };
      const path = join(dir, entry.name);
      const hidden = isProtectedName(entry.name, policy);
      if (entry.isDirectory()) {
        if (hidden) dirs.push(path);
        else if (entry.name !== '.git') pending.push(path);
      } else if (hidden && entry.isFile()) {
        files.push(path);
      }
    }
  }
  return { files, dirs, partial: false };
}
