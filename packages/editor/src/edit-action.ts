import { createHash } from 'node:crypto';
import { failure } from '@branchkit/core';
import type { Workspace } from '@branchkit/workspace';
import {
  applyByteEdit,
  type ByteEdit,
  ByteScan,
  countLineFeeds,
  digestWhile,
  excerptAround,
} from './internal/byte-edit.js';
import { findMatches } from './internal/find-matches.js';
import {
  applySurroundingEndings,
  describeLineEndings,
  dominantLineEnding,
  normalizeLineEndings,
  toOriginalOffset,
} from './internal/line-endings.js';
import { LineCounter } from './internal/lines.js';
import { decodeLoaded, type LoadedBytes, loadBytes, unchangedSince } from './internal/load-text.js';
import { explainMiss } from './internal/miss-report.js';
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
  const scan = new ByteScan(args.oldString!, args.newString!);
  const read = await loadBytes(ws, args.filePath, limits.maxFileBytes, scan.feed);
  if (!read.ok) return read.failure;
  const byteEdit = scan.finish(read.bytes);
  if (byteEdit) return editBytes(ws, read, byteEdit, limits, signal);
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
    sha256: createHash('sha256').update(output).digest('hex'),
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
  const linesBefore = edit.lineFeedsBefore - countLineFeeds(bytes, excerpt.from, edit.start);
  const firstLine = edit.lineFeedsBefore + 1;
  const lineEnding = bytes.indexOf(10, edit.bomBytes) >= 0 ? 'lf' : 'none';
  if (signal?.aborted) return failure('aborted', 'The call was cancelled before anything was written.');
  if (!(await unchangedSince(ws, file, bytes, limits.verifyBytesMax))) {
    return failure(
      'file_changed',
      `${file.relative} changed while the edit was being prepared; nothing was written. Read it again and retry.`,
    );
  }
  const output = applyByteEdit(bytes, edit);
  const { sha256, value: written } = await digestWhile(
    output,
    ws.writeFile(file.path, output, { createParents: false }),
  );
  if (!written.ok) return written;
  const at = excerpt.at;
  const change: Change = {
    oldStart: at,
    oldEnd: at + edit.oldText.length,
    newStart: at,
    newEnd: at + edit.newText.length,
  };
  const { diff, truncated } = unifiedDiff(
    excerpt.oldText,
    excerpt.newText,
    [change],
    { context: limits.diffContextLines, maxLines: limits.maxDiffLines, maxLineChars: limits.maxDiffLineChars },
    linesBefore,
  );
  return {
    success: true,
    action: 'edit',
    path: written.path,
    relative: written.relative,
    replacements: 1,
    first_line: firstLine,
    bytes: output.length,
    sha256,
    encoding: edit.encoding,
    line_ending: lineEnding,
    diff,
    diff_truncated: truncated,
    message: `Replaced 1 occurrence in ${written.relative} (first at line ${firstLine}).`,
  };
}
