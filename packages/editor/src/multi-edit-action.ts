import { createHash } from 'node:crypto';
import type { Workspace } from '@bough/workspace';
import { fileDiff } from '@bough/workspace/internal';
import { failure } from './errors.js';
import { type AppliedEdit, applyEdit, matchMeter } from './internal/apply-edit.js';
import { commitText } from './internal/commit-text.js';
import { type FileShare, NO_SHARE } from './internal/file-share.js';
import { describeLineEndings, normalizeLineEndings } from './internal/line-endings.js';
import { decodeLoaded, knownBytes, loadBytes } from './internal/load-text.js';
import { encodeText, firstLoneSurrogate } from './internal/text-codec.js';
import type { EditorLimits } from './limits.js';
import type { EditorResponse } from './schema.js';

/** Arguments of the `multi_edit` action after schema validation. */
export interface MultiEditArgs {
  filePath: string;
  edits: ReadonlyArray<{ old_string: string; new_string: string; replace_all?: boolean | undefined }>;
  fuzzy: boolean;
  dryRun: boolean;
}

function checkEdits(args: MultiEditArgs, limits: EditorLimits): EditorResponse | undefined {
  if (args.edits.length > limits.maxMultiEdits) {
    return failure(
      'too_many_edits',
      `multi_edit takes at most ${limits.maxMultiEdits} edits; this call has ${args.edits.length}. Split it, or use 'patch' or 'write'.`,
    );
  }
  for (const [index, edit] of args.edits.entries()) {
    const why =
      edit.old_string === ''
        ? 'old_string is empty'
        : edit.new_string === edit.old_string
          ? 'new_string is identical to old_string'
          : firstLoneSurrogate(edit.new_string) >= 0
            ? 'new_string holds an unpaired UTF-16 surrogate'
            : undefined;
    if (why) {
      return failure('invalid_request', `Edit ${index} is invalid (${why}); nothing was written.`, {
        edit_index: index,
      });
    }
  }
  return undefined;
}

/**
 * The `multi_edit` action: replacements applied in order to the file's text in memory, each to the result of the ones
 * before; the first that fails stops everything (nothing written) and is named with its reason. The result is one
 * atomic, byte-faithful write, as `edit` makes.
 */
export async function multiEditAction(
  ws: Workspace,
  args: MultiEditArgs,
  limits: EditorLimits,
  signal?: AbortSignal,
  share: FileShare = NO_SHARE,
): Promise<EditorResponse> {
  const bad = checkEdits(args, limits);
  if (bad) return bad;
  const read =
    (args.dryRun ? undefined : knownBytes(share, args.filePath, limits)) ??
    (await loadBytes(ws, args.filePath, limits.maxFileBytes));
  if (!read.ok) return read.failure;
  const loaded = decodeLoaded(read.file, read.bytes);
  if (!loaded.ok) return loaded.failure;
  const { file, bytes, decoded } = loaded;
  let text = decoded.text;
  const first = normalizeLineEndings(text).text;
  let last = first;
  const applied: AppliedEdit[] = [];
  const meter = matchMeter(limits, signal);
  for (const [index, edit] of args.edits.entries()) {
    const step = await applyEdit(
      text,
      { oldString: edit.old_string, newString: edit.new_string, replaceAll: edit.replace_all ?? false },
      { fuzzy: args.fuzzy, relative: file.relative, limits, meter },
    );
    if (!step.ok) {
      const {
        error,
        error_code,
        success: _,
        ...details
      } = step.failure as typeof step.failure & Record<string, unknown>;
      return failure(
        error_code,
        `Edit ${index} of ${args.edits.length} failed, so none was applied and nothing was written. ${error}` +
          (index > 0 ? ' Its old_string must match the text as the edits before it left it.' : ''),
        { ...details, edit_index: index },
      );
    }
    text = step.text;
    last = step.after;
    applied.push(step.applied);
  }
  const output = Buffer.concat([bytes.subarray(0, decoded.bomBytes), encodeText(text, decoded.encoding)]);
  const written = await commitText(ws, file, bytes, output, args.dryRun, limits, signal, share);
  if (!written.success) return written;
  const diff = fileDiff(
    first,
    last,
    { old: `a/${file.relative}`, new: `b/${file.relative}` },
    { context: limits.diffContextLines, maxLines: limits.maxDiffLines, maxLineChars: limits.maxDiffLineChars },
  );
  const replacements = applied.reduce((sum, a) => sum + a.replacements, 0);
  const loose = applied.filter((a) => a.strategy !== 'exact').length;
  return {
    success: true,
    action: 'multi_edit',
    path: written.path,
    relative: written.relative,
    edits: applied,
    replacements,
    added: diff.added,
    removed: diff.removed,
    bytes: output.length,
    ...(!args.dryRun && output.length <= limits.hashMaxBytes
      ? { sha256: createHash('sha256').update(output).digest('hex') }
      : {}),
    encoding: decoded.encoding,
    line_ending: describeLineEndings(text, normalizeLineEndings(text)),
    diff: diff.diff,
    diff_truncated: diff.truncated,
    ...(args.dryRun ? { dry_run: true as const } : {}),
    message:
      `${args.dryRun ? 'Dry run, nothing written: would apply' : 'Applied'} ${applied.length} edit${applied.length === 1 ? '' : 's'} ` +
      `(${replacements} replacement${replacements === 1 ? '' : 's'}, +${diff.added} -${diff.removed} lines) to ${written.relative}` +
      `${loose ? `; ${loose} matched loosely, see edits[].strategy` : ''}.`,
  };
}
