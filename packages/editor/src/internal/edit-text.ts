import { createHash } from 'node:crypto';
import type { Workspace } from '@bough/workspace';
import { unifiedDiff } from '@bough/workspace/internal';
import type { EditorLimits } from '../limits.js';
import type { EditorResponse } from '../schema.js';
import { applyEdit } from './apply-edit.js';
import { commitText } from './commit-text.js';
import type { EditArgs } from './edit-args.js';
import { type FileShare, NO_SHARE } from './file-share.js';
import { describeLineEndings, normalizeLineEndings } from './line-endings.js';
import { decodeLoaded, type LoadedBytes } from './load-text.js';
import { encodeText } from './text-codec.js';

/** The general path: strict decode, exact then fuzzy matching on text, miss reports, then a byte-faithful rewrite. */
export async function editText(
  ws: Workspace,
  read: Extract<LoadedBytes, { ok: true }>,
  args: EditArgs,
  limits: EditorLimits,
  signal?: AbortSignal,
  share: FileShare = NO_SHARE,
): Promise<EditorResponse> {
  const loaded = decodeLoaded(read.file, read.bytes);
  if (!loaded.ok) return loaded.failure;
  const { file, bytes, decoded } = loaded;
  const step = await applyEdit(
    decoded.text,
    { oldString: args.oldString!, newString: args.newString!, replaceAll: args.replaceAll },
    { fuzzy: args.fuzzy, relative: file.relative, limits, signal },
  );
  if (!step.ok) return step.failure;
  const output = Buffer.concat([bytes.subarray(0, decoded.bomBytes), encodeText(step.text, decoded.encoding)]);
  const written = await commitText(ws, file, bytes, output, args.dryRun, limits, signal, share);
  if (!written.success) return written;
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
