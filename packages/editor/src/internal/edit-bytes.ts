import type { Workspace, WrittenFile } from '@bough/workspace';
import { type Change, countLineFeedsIn, unifiedDiff } from '@bough/workspace/internal';
import { failure } from '../errors.js';
import type { EditorLimits } from '../limits.js';
import type { EditorResponse } from '../schema.js';
import { lineRange } from './apply-edit.js';
import { applyByteEdit, type ByteEdit, digestWhile, excerptAround } from './byte-edit.js';
import { writeIfUnchanged } from './commit-text.js';
import { type FileShare, NO_SHARE } from './file-share.js';
import type { LoadedBytes } from './load-text.js';

/**
 * The common case done on bytes (see {@link ByteScan}): no whole-file decode, no line-ending mapping, the
 * replacement spliced into the bytes read, and the diff and line numbers worked out from a few lines around the edit.
 * The response is the same as the text path would give.
 */
export async function editBytes(
  ws: Workspace,
  read: Extract<LoadedBytes, { ok: true }>,
  edit: ByteEdit,
  limits: EditorLimits,
  signal?: AbortSignal,
  share: FileShare = NO_SHARE,
): Promise<EditorResponse> {
  const { file, bytes } = read;
  const excerpt = excerptAround(bytes, edit, limits.diffContextLines);
  const linesBefore = edit.lineFeedsBefore - countLineFeedsIn(bytes, excerpt.from, edit.start);
  const firstLine = edit.lineFeedsBefore + 1;
  const lineEnding: 'lf' | 'none' = bytes.indexOf(10, edit.bomBytes) >= 0 ? 'lf' : 'none';
  if (signal?.aborted) return failure('aborted', 'The call was cancelled before anything was written.');
  // The check under the lock compares the file with the bytes read, so a file it compares is spliced into a copy
  // (one copy of at most `verifyBytesMax` bytes); a bigger one is checked by size and time, and spliced in place.
  const output =
    bytes.length <= limits.verifyBytesMax
      ? Buffer.concat([bytes.subarray(0, edit.start), edit.replacement, bytes.subarray(edit.end)])
      : applyByteEdit(bytes, edit);
  const writing = writeIfUnchanged(ws, file, bytes, output, limits);
  const { sha256, value: written } =
    output.length <= limits.hashMaxBytes
      ? await digestWhile(output, writing)
      : { sha256: undefined, value: await writing };
  if (!written.success) return written;
  share.wrote(written.path, output);
  return byteEditResponse(
    written,
    {
      firstLine,
      bytes: output.length,
      sha256,
      encoding: edit.encoding,
      lineEnding,
      excerpt,
      linesBefore,
      oldLength: edit.oldText.length,
      newLength: edit.newText.length,
    },
    limits,
  );
}

/** What the response of a single replacement made on bytes is built from. */
export interface ByteEditSummary {
  firstLine: number;
  bytes: number;
  /** Absent when the content is over `hashMaxBytes` and was not hashed. */
  sha256: string | undefined;
  encoding: 'utf-8' | 'utf-8-bom';
  lineEnding: 'lf' | 'none';
  excerpt: { oldText: string; newText: string; at: number };
  linesBefore: number;
  oldLength: number;
  newLength: number;
}

/** The response the text path would give for one replacement, with its diff worked out from the excerpt. */
export function byteEditResponse(written: WrittenFile, s: ByteEditSummary, limits: EditorLimits): EditorResponse {
  const at = s.excerpt.at;
  const change: Change = { oldStart: at, oldEnd: at + s.oldLength, newStart: at, newEnd: at + s.newLength };
  const { diff, truncated } = unifiedDiff(
    s.excerpt.oldText,
    s.excerpt.newText,
    [change],
    { context: limits.diffContextLines, maxLines: limits.maxDiffLines, maxLineChars: limits.maxDiffLineChars },
    s.linesBefore,
  );
  return {
    success: true,
    action: 'edit',
    path: written.path,
    relative: written.relative,
    replacements: 1,
    first_line: s.firstLine,
    bytes: s.bytes,
    ...(s.sha256 !== undefined ? { sha256: s.sha256 } : {}),
    encoding: s.encoding,
    line_ending: s.lineEnding,
    diff,
    diff_truncated: truncated,
    strategy: 'exact',
    ...lineRange(s.firstLine, s.excerpt.newText.slice(at, at + s.newLength)),
    message: `Replaced 1 occurrence in ${written.relative} (first at line ${s.firstLine}).`,
  };
}
