import { createHash } from 'node:crypto';
import { failure } from '@bough/core';
import type { OpenedFile, Workspace, WrittenFile } from '@bough/workspace';
import { countLineFeedsIn } from '@bough/workspace';
import { applyByteEdit, type ByteEdit, ByteScan, digestWhile, excerptAround } from './internal/byte-edit.js';
import { findMatches } from './internal/find-matches.js';
import {
  applySurroundingEndings,
  describeLineEndings,
  dominantLineEnding,
  normalizeLineEndings,
  toOriginalOffset,
} from './internal/line-endings.js';
import { LineCounter } from './internal/lines.js';
import {
  decodeLoaded,
  type LoadedBytes,
  loadBytes,
  openForEdit,
  readOpened,
  statUnchanged,
  unchangedSince,
} from './internal/load-text.js';
import { explainMiss } from './internal/miss-report.js';
import { type StreamedEdit, StreamReadError, type StreamStop, streamable, streamEdit } from './internal/stream-edit.js';
import { encodedLength, encodeText, firstLoneSurrogate } from './internal/text-codec.js';
import { type Change, unifiedDiff } from './internal/unified-diff.js';
import type { EditorLimits } from './limits.js';
import type { EditorResponse } from './schema.js';

/** Arguments of the `edit` action after schema validation. */
export interface EditArgs {
  filePath: string;
  oldString: string | undefined;
  newString: string | undefined;
  replaceAll: boolean;
}

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
): Promise<EditorResponse> {
  const bad = checkArgs(args);
  if (bad) return bad;
  const opened = await openForEdit(ws, args.filePath, limits.maxFileBytes);
  if (!opened.ok) return opened.failure;
  const { size } = opened.opened;
  if (size >= limits.streamEditMinBytes && size > limits.verifyBytesMax) {
    const streamed = await editStreaming(ws, opened.opened, args, limits, signal);
    if (streamed) return streamed;
    // Not a case the stream handles (or the file moved under it): the whole-file text path decides, from a fresh read.
    const again = await loadBytes(ws, args.filePath, limits.maxFileBytes);
    return again.ok ? editText(ws, again, args, limits, signal) : again.failure;
  }
  const scan = new ByteScan(args.oldString!, args.newString!);
  const read = await readOpened(opened.opened, limits.maxFileBytes, scan.feed);
  if (!read.ok) return read.failure;
  const byteEdit = scan.finish(read.bytes);
  if (byteEdit) return editBytes(ws, read, byteEdit, limits, signal);
  return editText(ws, read, args, limits, signal);
}

/** The general path: strict decode, line-ending-aware matching on text, miss reports, then a byte-faithful rewrite. */
async function editText(
  ws: Workspace,
  read: Extract<LoadedBytes, { ok: true }>,
  args: EditArgs,
  limits: EditorLimits,
  signal?: AbortSignal,
): Promise<EditorResponse> {
  const loaded = decodeLoaded(read.file, read.bytes);
  if (!loaded.ok) return loaded.failure;
  const { file, bytes, decoded } = loaded;
  const original = decoded.text;
  const normalized = normalizeLineEndings(original);
  const oldN = args.oldString!.replaceAll('\r\n', '\n');
  const newN = args.newString!.replaceAll('\r\n', '\n');
  const matches = findMatches(normalized.text, oldN);
  if (matches.length === 0) {
    const miss = explainMiss(normalized.text, oldN, {
      maxCandidates: limits.maxCandidates,
      minSimilarity: limits.minCandidateSimilarity,
      maxComparisons: limits.maxCandidateComparisons,
      maxChars: limits.maxCandidateChars,
    });
    return failure(
      'not_found_in_file',
      `old_string was not found in ${file.relative}. ${miss.hint} Re-read the file and copy the exact text.`,
      {
        reason: miss.reason,
        candidates: miss.candidates,
      },
    );
  }
  const counter = new LineCounter(normalized.text);
  if (matches.length > 1 && !args.replaceAll) {
    const lines = matches.slice(0, limits.maxReportedMatches).map((m) => counter.lineAt(m));
    return failure(
      'multiple_matches',
      `old_string occurs ${matches.length} times in ${file.relative} (lines ${lines.join(', ')}${matches.length > lines.length ? ', …' : ''}). ` +
        'Add surrounding lines to make it unique, or set replace_all to true to change every occurrence.',
      { match_count: matches.length, match_lines: lines },
    );
  }
  const fallback = dominantLineEnding(original, normalized);
  const pieces: Uint8Array[] = [bytes.subarray(0, decoded.bomBytes)];
  const newTextParts: string[] = [];
  const changes: Change[] = [];
  let byteAt = decoded.bomBytes;
  let origAt = 0;
  let normAt = 0;
  let newLength = 0;
  for (const m of matches) {
    const start = toOriginalOffset(normalized, m);
    const end = toOriginalOffset(normalized, m + oldN.length);
    const startByte = byteAt + encodedLength(original.slice(origAt, start), decoded.encoding);
    pieces.push(
      bytes.subarray(byteAt, startByte),
      encodeText(applySurroundingEndings(newN, original, start, end, fallback), decoded.encoding),
    );
    byteAt = startByte + encodedLength(original.slice(start, end), decoded.encoding);
    origAt = end;
    newLength += m - normAt;
    newTextParts.push(normalized.text.slice(normAt, m), newN);
    changes.push({ oldStart: m, oldEnd: m + oldN.length, newStart: newLength, newEnd: newLength + newN.length });
    newLength += newN.length;
    normAt = m + oldN.length;
  }
  pieces.push(bytes.subarray(byteAt));
  newTextParts.push(normalized.text.slice(normAt));
  const output = Buffer.concat(pieces);
  if (signal?.aborted) return failure('aborted', 'The call was cancelled before anything was written.');
  if (!(await unchangedSince(ws, file, bytes, limits.verifyBytesMax))) {
    return failure(
      'file_changed',
      `${file.relative} changed while the edit was being prepared; nothing was written. Read it again and retry.`,
    );
  }
  const written = await ws.writeFile(file.path, output, { createParents: false });
  if (!written.ok) return written;
  const newText = newTextParts.join('');
  const { diff, truncated } = unifiedDiff(normalized.text, newText, changes, {
    context: limits.diffContextLines,
    maxLines: limits.maxDiffLines,
    maxLineChars: limits.maxDiffLineChars,
  });
  const firstLine = new LineCounter(newText).lineAt(changes[0]!.newStart);
  const n = matches.length;
  return {
    success: true,
    action: 'edit',
    path: written.path,
    relative: written.relative,
    replacements: n,
    first_line: firstLine,
    bytes: output.length,
    ...(output.length <= limits.hashMaxBytes ? { sha256: createHash('sha256').update(output).digest('hex') } : {}),
    encoding: decoded.encoding,
    line_ending: describeLineEndings(original, normalized),
    diff,
    diff_truncated: truncated,
    message: `Replaced ${n} occurrence${n === 1 ? '' : 's'} in ${written.relative} (first at line ${firstLine}).`,
  };
}

/**
 * The common case done on bytes (see {@link ByteScan}): no whole-file decode, no line-ending mapping, the
 * replacement spliced into the bytes read, and the diff and line numbers worked out from a few lines around the edit.
 * The response is the same as the text path would give.
 */
async function editBytes(
  ws: Workspace,
  read: Extract<LoadedBytes, { ok: true }>,
  edit: ByteEdit,
  limits: EditorLimits,
  signal?: AbortSignal,
): Promise<EditorResponse> {
  const { file, bytes } = read;
  const excerpt = excerptAround(bytes, edit, limits.diffContextLines);
  const linesBefore = edit.lineFeedsBefore - countLineFeedsIn(bytes, excerpt.from, edit.start);
  const firstLine = edit.lineFeedsBefore + 1;
  const lineEnding: 'lf' | 'none' = bytes.indexOf(10, edit.bomBytes) >= 0 ? 'lf' : 'none';
  if (signal?.aborted) return failure('aborted', 'The call was cancelled before anything was written.');
  if (!(await unchangedSince(ws, file, bytes, limits.verifyBytesMax))) {
    return failure(
      'file_changed',
      `${file.relative} changed while the edit was being prepared; nothing was written. Read it again and retry.`,
    );
  }
  const output = applyByteEdit(bytes, edit);
  const writing = ws.writeFile(file.path, output, { createParents: false });
  const { sha256, value: written } =
    output.length <= limits.hashMaxBytes
      ? await digestWhile(output, writing)
      : { sha256: undefined, value: await writing };
  if (!written.ok) return written;
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
interface ByteEditSummary {
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
function byteEditResponse(written: WrittenFile, s: ByteEditSummary, limits: EditorLimits): EditorResponse {
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
    message: `Replaced 1 occurrence in ${written.relative} (first at line ${s.firstLine}).`,
  };
}

/**
 * A big file edited in one streamed pass (see {@link streamEdit}) into a workspace replacement: the original is
 * never held whole, and reading, checks, hashing and writing overlap. Undefined when the pass found a case it does
 * not handle (no match, several, a CR, invalid UTF-8, UTF-16...): nothing was written and the caller falls back.
 */
async function editStreaming(
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
    return failure(
      'file_changed',
      `${file.relative} changed while the edit was being prepared; nothing was written. Read it again and retry.`,
    );
  }
  if (!written.ok) return written;
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
