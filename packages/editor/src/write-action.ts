import { createHash } from 'node:crypto';
import type { Workspace } from '@bough/workspace';
import { countLines, fileDiff } from '@bough/workspace/internal';
import { type EditorFailure, failure } from './errors.js';
import { type FileShare, NO_SHARE } from './internal/file-share.js';
import { sampleStyle, styleOf } from './internal/file-style.js';
import { normalizeLineEndings } from './internal/line-endings.js';
import { loadText } from './internal/load-text.js';
import { bomFor, encodeText, firstLoneSurrogate, type TextEncodingName } from './internal/text-codec.js';
import type { EditorLimits } from './limits.js';
import type { EditorResponse } from './schema.js';

/** The `write` action: whole-file create or atomic replace, keeping an existing file's encoding and CRLF style. */
export async function writeAction(
  ws: Workspace,
  filePath: string,
  content: string | undefined,
  limits: EditorLimits,
  signal?: AbortSignal,
  dryRun = false,
  share: FileShare = NO_SHARE,
): Promise<EditorResponse> {
  if (content === undefined) {
    return failure('invalid_request', "action 'write' needs 'content': the complete text the file should hold.");
  }
  const lone = firstLoneSurrogate(content);
  if (lone >= 0) {
    return failure(
      'invalid_request',
      `'content' holds a broken character (an unpaired UTF-16 surrogate at index ${lone}); send valid Unicode text.`,
    );
  }
  // The file the caller has just read is as good a sample as one we would read (it only steers encoding and endings).
  const known = dryRun ? undefined : share.known(filePath);
  const style = known
    ? styleOf(known.bytes.subarray(0, limits.styleSampleBytes))
    : await sampleStyle(ws, filePath, limits.styleSampleBytes);
  const encoding: TextEncodingName = style?.encoding ?? 'utf-8';
  let text = encoding === 'utf-8' ? content : content.replace(/^\uFEFF/, '');
  const convertEol = style?.crlf === true && text.includes('\n') && !text.includes('\r\n');
  if (convertEol) text = text.replace(/\n/g, '\r\n');
  const bytes = Buffer.concat([bomFor(encoding), encodeText(text, encoding)]);
  if (bytes.length > limits.maxWriteBytes) {
    return failure(
      'too_large',
      `The content is ${bytes.length} bytes, over the ${limits.maxWriteBytes}-byte write limit; split it into smaller files.`,
    );
  }
  if (signal?.aborted) return failure('aborted', 'The call was cancelled before anything was written.');
  const preview = dryRun ? await previewWrite(ws, filePath, text, limits) : undefined;
  if (preview && !preview.success) return preview;
  const written = preview ?? (await ws.writeFile(filePath, bytes, { createParents: true }));
  if (!written.success) return written;
  if (!preview) share.wrote(written.path, bytes);
  const lines = countLines(content);
  const kept = [
    encoding !== 'utf-8' ? `kept its ${encoding.toUpperCase()} encoding` : '',
    convertEol ? 'kept its CRLF line endings' : '',
  ].filter(Boolean);
  const verb = `${dryRun ? 'Dry run, nothing written: would have ' : ''}${written.created ? 'Created' : 'Overwrote'}`;
  return {
    success: true,
    action: 'write',
    path: written.path,
    relative: written.relative,
    created: written.created,
    bytes: bytes.length,
    lines,
    ...(!dryRun && bytes.length <= limits.hashMaxBytes
      ? { sha256: createHash('sha256').update(bytes).digest('hex') }
      : {}),
    encoding,
    line_ending: text.includes('\r\n')
      ? text.replace(/\r\n/g, '').includes('\n')
        ? 'mixed'
        : 'crlf'
      : text.includes('\n')
        ? 'lf'
        : 'none',
    ...(preview ? { diff: preview.diff, diff_truncated: preview.truncated, dry_run: true as const } : {}),
    message: `${verb} ${written.relative} (${lines} line${lines === 1 ? '' : 's'}, ${bytes.length} bytes)${kept.length ? `; ${kept.join(' and ')}` : ''}.`,
  };
}

/** What a dry-run `write` checks and shows: the gate's verdict on the path and the diff against the current text. */
async function previewWrite(
  ws: Workspace,
  filePath: string,
  text: string,
  limits: EditorLimits,
): Promise<
  { success: true; path: string; relative: string; created: boolean; diff: string; truncated: boolean } | EditorFailure
> {
  const where = await ws.resolve(filePath, 'write');
  if (!where.success) return where;
  let before = '';
  if (where.exists) {
    const current = await loadText(ws, where.path, limits.maxFileBytes);
    before = current.ok ? normalizeLineEndings(current.decoded.text).text : '';
  }
  const diff = fileDiff(
    before,
    normalizeLineEndings(text).text,
    { old: where.exists ? `a/${where.relative}` : '/dev/null', new: `b/${where.relative}` },
    { context: limits.diffContextLines, maxLines: limits.maxDiffLines, maxLineChars: limits.maxDiffLineChars },
  );
  return {
    success: true,
    path: where.path,
    relative: where.relative,
    created: !where.exists,
    diff: diff.diff,
    truncated: diff.truncated,
  };
}
