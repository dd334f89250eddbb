import type { Workspace } from '@bough/workspace';
import { failure } from './errors.js';
import { ByteScan } from './internal/byte-edit.js';
import type { EditArgs } from './internal/edit-args.js';
import { editBytes } from './internal/edit-bytes.js';
import { editStreaming } from './internal/edit-streaming.js';
import { editText } from './internal/edit-text.js';
import { type FileShare, NO_SHARE } from './internal/file-share.js';
import { knownBytes, loadBytes, openForEdit, readOpened } from './internal/load-text.js';
import { firstLoneSurrogate } from './internal/text-codec.js';
import type { EditorLimits } from './limits.js';
import type { EditorResponse } from './schema.js';

function checkArgs(args: EditArgs): EditorResponse | undefined {
  if (args.oldString === undefined || args.oldString === '') {
    return failure(
      'invalid_request',
      "action 'edit' needs a non-empty 'old_string': read the file, then copy the exact text to replace.",
    );
  }
  if (args.newString === undefined) {
    return failure('invalid_request', "action 'edit' needs 'new_string' (use '' to delete old_string).");
  }
  if (args.newString === args.oldString) {
    return failure('no_change', 'new_string is identical to old_string, so the edit would change nothing.');
  }
  const lone = firstLoneSurrogate(args.newString);
  if (lone >= 0) {
    return failure(
      'invalid_request',
      `'new_string' holds an unpaired UTF-16 surrogate at index ${lone}; send valid text.`,
    );
  }
  return undefined;
}

/** The `edit` action: exact, line-ending-aware replacement written back byte-faithfully and atomically. */
export async function editAction(
  ws: Workspace,
  args: EditArgs,
  limits: EditorLimits,
  signal?: AbortSignal,
  share: FileShare = NO_SHARE,
): Promise<EditorResponse> {
  const bad = checkArgs(args);
  if (bad) return bad;
  const known = args.dryRun ? undefined : knownBytes(share, args.filePath, limits);
  if (known) {
    // The caller's read stands in for ours; the check before writing still compares it with the file on disk.
    const byteEdit = new ByteScan(args.oldString!, args.newString!).finish(known.bytes);
    if (byteEdit) return editBytes(ws, known, byteEdit, limits, signal, share);
    return editText(ws, known, args, limits, signal, share);
  }
  const opened = await openForEdit(ws, args.filePath, limits.maxFileBytes);
  if (!opened.ok) return opened.failure;
  const { size } = opened.opened;
  if (args.dryRun) {
    const read = await readOpened(opened.opened, limits.maxFileBytes);
    return read.ok ? editText(ws, read, args, limits, signal) : read.failure;
  }
  if (size >= limits.streamEditMinBytes && size > limits.verifyBytesMax) {
    const streamed = await editStreaming(ws, opened.opened, args, limits, signal);
    if (streamed) return streamed;
    // Not a case the stream handles (or the file moved under it): the whole-file text path decides, from a fresh read.
    const again = await loadBytes(ws, args.filePath, limits.maxFileBytes);
    return again.ok ? editText(ws, again, args, limits, signal, share) : again.failure;
  }
  const scan = new ByteScan(args.oldString!, args.newString!);
  const read = await readOpened(opened.opened, limits.maxFileBytes, scan.feed);
  if (!read.ok) return read.failure;
  const byteEdit = scan.finish(read.bytes);
  if (byteEdit) return editBytes(ws, read, byteEdit, limits, signal, share);
  return editText(ws, read, args, limits, signal, share);
}
