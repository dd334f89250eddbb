import { parsePatchFiles } from './internal/patch-parse.js';

/** One file a patch names, and what the patch would do to it. */
export interface PatchFile {
  /** The path exactly as the patch writes it (relative to the workspace root, or absolute). */
  readonly path: string;
  /**
   * `update` and `delete` need the file to exist; `add` creates it; `move_to` is the new name of an updated file
   * (the update names the old one just before it).
   */
  readonly kind: 'update' | 'delete' | 'add' | 'move_to';
}

/** The files of a patch, or why the editor would refuse to read it (with the 1-based patch line). */
export type PatchFiles =
  | { readonly success: true; readonly format: 'apply_patch' | 'unified'; readonly files: readonly PatchFile[] }
  | { readonly success: false; readonly line: number; readonly reason: string };

/**
 * Every file a patch names, read by the same parser the editor's `patch` action applies (apply_patch format, or a
 * unified diff as `git diff` / `diff -u` print it). For callers that check paths before the editor runs (a
 * read-before-edit guard, a permission check, a diagnostics watcher): what they see is exactly what would be changed.
 * Nothing is read from disk; a patch the editor could not parse gives `success: false`.
 */
export function patchFiles(patch: string): PatchFiles {
  // One call is often asked about the same patch several times (a policy, a guard, a watcher): the last answer is
  // kept, frozen, so a multi-megabyte patch is read once.
  if (last !== undefined && last.patch === patch) return last.files;
  const files = Object.freeze(readFiles(patch));
  last = { patch, files };
  return files;
}

let last: { patch: string; files: PatchFiles } | undefined;

function readFiles(patch: string): PatchFiles {
  const parsed = parsePatchFiles(patch);
  if (!parsed.ok) return { success: false, line: parsed.line, reason: parsed.reason };
  const files: PatchFile[] = [];
  for (const op of parsed.ops) {
    if (op.op === 'update') {
      files.push({ path: op.path, kind: 'update' });
      if (op.moveTo !== undefined && op.moveTo !== op.path) files.push({ path: op.moveTo, kind: 'move_to' });
    } else files.push({ path: op.path, kind: op.op });
  }
  return { success: true, format: parsed.format, files: Object.freeze(files) };
}
