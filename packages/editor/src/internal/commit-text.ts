import type { OpenedFile, Workspace } from '@bough/workspace';
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
  if (!(await unchangedSince(ws, file, bytes, limits.verifyBytesMax))) {
    return fileChanged(file.relative);
  }
  if (dryRun) return { success: true, path: file.path, relative: file.relative };
  const written = await ws.writeFile(file.path, output, { createParents: false });
  if (!written.success) return written;
  share.wrote(written.path, output);
  return { success: true, path: written.path, relative: written.relative };
}
