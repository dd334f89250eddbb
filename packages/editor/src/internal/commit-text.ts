import type { OpenedFile, Workspace, WrittenFile } from '@bough/workspace';
import { type EditorFailure, failure } from '../errors.js';
import type { EditorLimits } from '../limits.js';
import { type FileShare, NO_SHARE } from './file-share.js';
import { unchangedSince } from './load-text.js';

/** The answer to an edit whose file changed after it was read: nothing was written, and it says to read again. */
export function fileChanged(relative: string): EditorFailure {
  return failure(
    'file_changed',
    `${relative} changed while the edit was being prepared; nothing was written. Read it again and retry.`,
  );
}

/** Where a text edit was (or, in a dry run, would have been) written. */
export type Committed = { success: true; path: string; relative: string } | EditorFailure;

/**
 * Writes `output` over the file read as `bytes`, unless it changed meanwhile (`file_changed`); a dry run stops after
 * that check and writes nothing.
 */
export async function commitText(
  ws: Workspace,
  file: Omit<OpenedFile, 'handle'>,
  bytes: Buffer,
  output: Buffer,
  dryRun: boolean,
  limits: EditorLimits,
  signal?: AbortSignal,
  share: FileShare = NO_SHARE,
): Promise<Committed> {
  if (signal?.aborted) return failure('aborted', 'The call was cancelled before anything was written.');
  if (dryRun) {
    if (!(await unchangedSince(ws, file, bytes, limits.verifyBytesMax))) return fileChanged(file.relative);
    return { success: true, path: file.path, relative: file.relative };
  }
  const written = await writeIfUnchanged(ws, file, bytes, output, limits);
  if (!written.success) return written;
  share.wrote(written.path, output);
  return { success: true, path: written.path, relative: written.relative };
}

/**
 * Writes `output` over the file read as `bytes` only if it is still that file: the check runs under the workspace's
 * lock of the path, so no other write of it in this process lands between the check and the rename (two edits
 * started from the same content: one wins, the other gets `file_changed` and writes nothing).
 */
export async function writeIfUnchanged(
  ws: Workspace,
  file: Omit<OpenedFile, 'handle'>,
  bytes: Buffer,
  output: Buffer,
  limits: EditorLimits,
): Promise<WrittenFile | EditorFailure> {
  let changed = false;
  const confirm = async () => {
    changed = !(await unchangedSince(ws, file, bytes, limits.verifyBytesMax));
    return !changed;
  };
  const written = await ws.writeFile(file.path, output, { createParents: false, confirm });
  return changed ? fileChanged(file.relative) : written;
}
