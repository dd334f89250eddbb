import { createHash } from 'node:crypto';
import type { OpenedFile, Workspace, WrittenFile } from '@bough/workspace';
import { countLineFeedsIn } from '@bough/workspace';
import { type EditorFailure, failure } from './errors.js';
import { applyEdit, lineRange } from './internal/apply-edit.js';
import { applyByteEdit, type ByteEdit, ByteScan, digestWhile, excerptAround } from './internal/byte-edit.js';
import { describeLineEndings, normalizeLineEndings } from './internal/line-endings.js';
import {
  decodeLoaded,
  type LoadedBytes,
  loadBytes,
  openForEdit,
  readOpened,
  statUnchanged,
  unchangedSince,
} from './internal/load-text.js';
import { type StreamedEdit, StreamReadError, type StreamStop, streamable, streamEdit } from './internal/stream-edit.js';
import { encodeText, firstLoneSurrogate } from './internal/text-codec.js';
import { type Change, unifiedDiff } from './internal/unified-diff.js';
import type { EditorLimits } from './limits.js';
import type { EditorResponse } from './schema.js';

/** Arguments of the `edit` action after schema validation. */
export interface EditArgs {
  filePath: string;
  oldString: string | undefined;
  newString: string | undefined;
  replaceAll: boolean;
  /** Try the fuzzy tiers when the exact text is not found. */
  fuzzy: boolean;
  /** Run every check and build the response, but write nothing. */
  dryRun: boolean;
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
  if (args.dryRun) {
    const read = await readOpened(opened.opened, limits.maxFileBytes);
    return read.ok ? editText(ws, read, args, limits, signal) : read.failure;
  }
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

/** The general path: strict decode, exact then fuzzy matching on text, miss reports, then a byte-faithful rewrite. */
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
  const step = applyEdit(
    decoded.text,
    { oldString: args.oldString!, newString: args.newString!, replaceAll: args.replaceAll },
    { fuzzy: args.fuzzy, relative: file.relative, limits },
  );
  if (!step.ok) return step.failure;
  const output = Buffer.concat([bytes.subarray(0, decoded.bomBytes), encodeText(step.text, decoded.encoding)]);
  const written = await commitText(ws, file, bytes, output, args.dryRun, limits, signal);
  if (!written.ok) return written;
  const { diff, truncated } = unifiedDiff(step.before, step.after, step.changes, {
    context: limits.diffContextLines,
    maxLines: limits.maxDiffLines,
    maxLineChars: limits.maxDiffLineChars,
  });
  const firstLine = step.applied.start_line;
  const n = step.applied.replacements;
  const how = step.applied.strategy === 'exact' ? '' : ` by a ${step.applied.strategy.replaceAll('_', ' ')} match`;
  return {
    success: true,
    action: 'edit',
    path: written.path,
    relative: written.relative,
    replacements: n,
    first_line: firstLine,
    strategy: step.applied.strategy,
    start_line: step.applied.start_line,
    end_line: step.applied.end_line,
    bytes: output.length,
    ...(!args.dryRun && output.length <= limits.hashMaxBytes
      ? { sha256: createHash('sha256').update(output).digest('hex') }
      : {}),
    encoding: decoded.encoding,
    line_ending: describeLineEndings(decoded.text, normalizeLineEndings(decoded.text)),
    diff,
    diff_truncated: truncated,
    ...(args.dryRun ? { dry_run: true } : {}),
    message: `${args.dryRun ? 'Dry run, nothing written: would replace' : 'Replaced'} ${n} occurrence${n === 1 ? '' : 's'} in ${written.relative}${how} (first at line ${firstLine}).`,
  };
}

/** Where a text edit was (or, in a dry run, would have been) written. */
type Committed = { ok: true; path: string; relative: string } | (EditorFailure & { ok?: undefined });

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
): Promise<Committed> {
  if (signal?.aborted) return failure('aborted', 'The call was cancelled before anything was written.');
  if (!(await unchangedSince(ws, file, bytes, limits.verifyBytesMax))) {
    return failure(
      'file_changed',
      `${file.relative} changed while the edit was being prepared; nothing was written. Read it again and retry.`,
    );
  }
  if (dryRun) return { ok: true, path: file.path, relative: file.relative };
  const written = await ws.writeFile(file.path, output, { createParents: false });
  return written.success ? { ok: true, path: written.path, relative: written.relative } : written;
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
  if (!written.success) return written;
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
    strategy: 'exact',
    ...lineRange(s.firstLine, s.excerpt.newText.slice(at, at + s.newLength)),
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
