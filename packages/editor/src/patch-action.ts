import type { Workspace } from '@bough/workspace';
import { failure } from './errors.js';
import { pacedFileDiff } from './internal/change-diff.js';
import type { HunkReport } from './internal/patch-apply.js';
import { parsePatchPaced } from './internal/patch-parse.js';
import { planPatch } from './internal/patch-plan.js';
import type { EditorLimits } from './limits.js';
import type { EditorResponse } from './schema.js';

/** Arguments of the `patch` action after schema validation. */
export interface PatchArgs {
  patch: string | undefined;
  fuzzy: boolean;
  dryRun: boolean;
}

/**
 * The `patch` action: a multi-file patch (apply_patch format or unified diff) validated whole against the current
 * files, then applied all or nothing through the workspace's transaction; a dry run stops after validation.
 */
export async function patchAction(
  ws: Workspace,
  args: PatchArgs,
  limits: EditorLimits,
  signal?: AbortSignal,
): Promise<EditorResponse> {
  if (args.patch === undefined || args.patch.trim() === '') {
    return failure('invalid_request', "action 'patch' needs 'patch': the patch text.");
  }
  if (args.patch.length > limits.maxPatchBytes) {
    return failure(
      'too_large',
      `The patch is ${args.patch.length} characters, over the ${limits.maxPatchBytes} limit; split it into several patches.`,
    );
  }
  const parsed = await parsePatchPaced(args.patch, signal);
  if (parsed === 'aborted')
    return failure('aborted', 'The call was cancelled while the patch was read; nothing was written.');
  if (!parsed.ok) {
    if (parsed.unsupported) {
      return failure('unsupported_patch', `Nothing was written: ${parsed.reason} (patch line ${parsed.line})`, {
        patch_line: parsed.line,
      });
    }
    return failure('invalid_patch', `The patch could not be read at its line ${parsed.line}: ${parsed.reason}`, {
      patch_line: parsed.line,
    });
  }
  if (parsed.ops.length > limits.maxPatchFiles) {
    return failure(
      'too_large',
      `The patch touches ${parsed.ops.length} files; at most ${limits.maxPatchFiles} per call.`,
    );
  }
  const planned = await planPatch(ws, parsed.ops, args.fuzzy, limits, signal);
  if (!planned.ok) return planned.failure;
  if (signal?.aborted) return failure('aborted', 'The call was cancelled before anything was written.');
  if (!args.dryRun) {
    const done = await ws.applyChanges(planned.files.flatMap((f) => f.changes));
    if (!done.success) {
      const { failed_path, failed_step, rolled_back } = done;
      const changed = done.error_code === 'changed_during_check' && failed_step === 'verify';
      return failure(changed ? 'file_changed' : done.error_code, done.error, {
        file: ws.relative(failed_path),
        step: failed_step,
        rolled_back,
      });
    }
  }
  let budget = limits.maxPatchDiffLines;
  const diffs: string[] = [];
  let truncated = false;
  let added = 0;
  let removed = 0;
  const files = [];
  let hunkRoom = limits.maxReportedHunks;
  let loose = 0;
  let hunksCut = false;
  for (const f of planned.files) {
    const names = {
      old: f.op === 'add' ? '/dev/null' : `a/${f.from ?? f.relative}`,
      new: f.op === 'delete' ? '/dev/null' : `b/${f.relative}`,
    };
    const shown = {
      context: limits.diffContextLines,
      maxLines: Math.max(budget, 1),
      maxLineChars: limits.maxDiffLineChars,
    };
    // The replacements are known: only their lines are compared, not the whole files again.
    const d = await pacedFileDiff(f.before, f.after, names, shown, f.edits);
    if (budget > 0) {
      diffs.push(d.diff);
      budget -= d.diff.split('\n').length;
      truncated ||= d.truncated;
    } else truncated = true;
    added += d.added;
    removed += d.removed;
    files.push({
      op: f.op,
      relative: f.relative,
      ...(f.from !== undefined ? { from: f.from } : {}),
      added: d.added,
      removed: d.removed,
      ...(f.mode !== undefined ? { mode: (f.mode & 0o777).toString(8) } : {}),
      ...(f.hunks ? reportedHunks(f.hunks, hunkRoom) : {}),
    });
    hunksCut ||= (f.hunks?.length ?? 0) > hunkRoom;
    hunkRoom = Math.max(0, hunkRoom - (f.hunks?.length ?? 0));
    loose += f.hunks?.filter((h) => h.strategy !== 'exact').length ?? 0;
  }
  return {
    success: true,
    action: 'patch',
    files,
    added,
    removed,
    diff:
      diffs.filter(Boolean).join('\n') + (truncated ? '\n… combined diff cut; read the files to see the rest.' : ''),
    diff_truncated: truncated,
    ...(args.dryRun ? { dry_run: true as const } : {}),
    message:
      `${args.dryRun ? 'Dry run, nothing written: the patch would change' : 'Patched'} ${files.length} file${files.length === 1 ? '' : 's'} ` +
      `(${files
        .map((f) => `${f.op} ${f.relative}${f.mode ? ` (mode ${f.mode})` : ''}`)
        .join(', ')
        .slice(0, 400)}; +${added} -${removed} lines)` +
      `${loose ? `; ${loose} hunk${loose === 1 ? '' : 's'} matched loosely, see files[].hunks` : ''}` +
      `${hunksCut ? `; hunk reports cut at ${limits.maxReportedHunks} (maxReportedHunks), files[].hunks_total counts them all` : ''}.`,
  };
}

/** A file's hunk reports, cut to the `room` left in the call (with the full count when cut). */
function reportedHunks(hunks: HunkReport[], room: number): { hunks: HunkReport[]; hunks_total?: number } {
  return hunks.length <= room ? { hunks } : { hunks: hunks.slice(0, room), hunks_total: hunks.length };
}
