import type { OpenedFile, Workspace } from '@bough/workspace';
import { failure } from '../errors.js';
import type { EditorLimits } from '../limits.js';
import type { EditorResponse } from '../schema.js';
import { fileChanged } from './commit-text.js';
import type { EditArgs } from './edit-args.js';
import { byteEditResponse } from './edit-bytes.js';
import { statUnchanged } from './load-text.js';
import { type StreamedEdit, StreamReadError, type StreamStop, streamable, streamEdit } from './stream-edit.js';

/**
 * A big file edited in one streamed pass (see {@link streamEdit}) into a workspace replacement: the original is
 * never held whole, and reading, checks, hashing and writing overlap. Undefined when the pass found a case it does
 * not handle (no match, several, a CR, invalid UTF-8, UTF-16...): nothing was written and the caller falls back.
 */
export async function editStreaming(
  ws: Workspace,
  opened: OpenedFile,
  args: EditArgs,
  limits: EditorLimits,
  signal?: AbortSignal,
): Promise<EditorResponse | undefined> {
  const { handle, ...file } = opened;
  const oldText = args.oldString!.replaceAll('\r\n', '\n');
  const newText = args.newString!.replaceAll('\r\n', '\n');
  const oldBytes = Buffer.byteLength(oldText, 'utf8');
  const newBytes = Buffer.byteLength(newText, 'utf8');
  let outcome = 'whole_file' as StreamedEdit | StreamStop;
  let readError: string | undefined;
  let changed = false;
  let written: Awaited<ReturnType<Workspace['replaceFile']>>;
  try {
    if (!streamable(oldText)) return undefined;
    written = await ws.replaceFile(
      file.path,
      async (sink) => {
        try {
          outcome = await streamEdit(opened, sink, {
            oldText,
            newText,
            maxFileBytes: limits.maxFileBytes,
            chunkBytes: limits.streamChunkBytes,
            diffContextLines: limits.diffContextLines,
            // The output size is known up front (one replacement), so the hash is skipped when the response drops it.
            hash: file.size - oldBytes + newBytes <= limits.hashMaxBytes,
            signal,
          });
        } catch (error) {
          if (!(error instanceof StreamReadError)) throw error;
          readError = error.code;
          return false;
        }
        return typeof outcome !== 'string';
      },
      {
        confirm: async () => {
          if (signal?.aborted) {
            outcome = 'aborted';
            return false;
          }
          changed = !(await statUnchanged(ws, file));
          return !changed;
        },
      },
    );
  } finally {
    await handle.close().catch(() => undefined);
  }
  if (readError !== undefined) return failure('io_error', `Could not read ${file.relative} (${readError}).`);
  if (outcome === 'aborted') return failure('aborted', 'The call was cancelled before anything was written.');
  if (changed) {
    return fileChanged(file.relative);
  }
  if (!written.success) return written;
  if ('abandoned' in written || typeof outcome === 'string') return undefined;
  return byteEditResponse(
    written,
    {
      firstLine: outcome.lineFeedsBefore + 1,
      bytes: outcome.outputBytes,
      sha256: outcome.outputBytes <= limits.hashMaxBytes ? outcome.sha256 : undefined,
      encoding: outcome.encoding,
      lineEnding: outcome.hasLineFeed ? 'lf' : 'none',
      excerpt: outcome.excerpt,
      linesBefore: outcome.linesBefore,
      oldLength: oldText.length,
      newLength: newText.length,
    },
    limits,
  );
}
