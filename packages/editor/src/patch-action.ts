import type { FileChange, Workspace } from '@bough/workspace';
import { type EditorFailure, failure } from './errors.js';
import { applyReplacements } from './internal/apply-edit.js';
import { fileDiff } from './internal/line-diff.js';
import { normalizeLineEndings } from './internal/line-endings.js';
import { decodeLoaded, loadBytes } from './internal/load-text.js';
import { applyHunks, type HunkReport } from './internal/patch-apply.js';
import { type PatchOp, parsePatch } from './internal/patch-parse.js';
import { encodeText, firstLoneSurrogate } from './internal/text-codec.js';
import type { EditorLimits } from './limits.js';
import type { EditorResponse } from './schema.js';

/** Arguments of the `patch` action after schema validation. */
export interface PatchArgs {
  patch: string | undefined;
  fuzzy: boolean;
  dryRun: boolean;
}

interface Planned {
  op: 'add' | 'update' | 'delete' | 'move';
  relative: string;
  from?: string;
  before: string;
  after: string;
  hunks?: HunkReport[];
  changes: FileChange[];
  real: string[];
}

type Plan = { ok: true; file: Planned } | { ok: false; failure: EditorFailure };

const refused = (f: EditorFailure, path: string): Plan => ({
  ok: false,
  failure: {
    ...f,
    error: `${f.error} (patch file ${JSON.stringify(path)}; nothing was written)`,
    file: path,
  } as EditorFailure,
});

async function planAdd(ws: Workspace, path: string, content: string): Promise<Plan> {
  const where = await ws.resolve(path, 'write');
  if (!where.success) return refused(where, path);
  if (where.exists) {
    return refused(
      failure('already_exists', `${where.relative} already exists; use '*** Update File' to change it.`),
      path,
    );
  }
  if (firstLoneSurrogate(content) >= 0)
    return refused(failure('invalid_patch', 'The new file holds broken text.'), path);
  return {
    ok: true,
    file: {
      op: 'add',
      relative: where.relative,
      before: '',
      after: content,
      changes: [{ kind: 'create', path: where.path, data: Buffer.from(content, 'utf8') }],
      real: [where.path],
    },
  };
}

async function planExisting(
  ws: Workspace,
  op: Extract<PatchOp, { op: 'update' | 'delete' }>,
  fuzzy: boolean,
  limits: EditorLimits,
  signal?: AbortSignal,
): Promise<Plan> {
  const where = await ws.resolve(op.path, 'write');
  if (!where.success) return refused(where, op.path);
  if (where.kind !== 'file') {
    return refused(
      where.kind === 'missing'
        ? failure('not_found', `${where.relative} does not exist.`)
        : failure('not_a_file', `${where.relative} is not a regular file (a patch only deletes or changes files).`),
      op.path,
    );
  }
  const read = await loadBytes(ws, where.path, limits.maxFileBytes);
  if (!read.ok) return refused(read.failure, op.path);
  if (op.op === 'delete') {
    const decoded = decodeLoaded(read.file, read.bytes);
    return {
      ok: true,
      file: {
        op: 'delete',
        relative: where.relative,
        before: decoded.ok ? normalizeLineEndings(decoded.decoded.text).text : '',
        after: '',
        changes: [{ kind: 'delete', path: where.path, expected: read.bytes }],
        real: [where.path],
      },
    };
  }
  const loaded = decodeLoaded(read.file, read.bytes);
  if (!loaded.ok) return refused(loaded.failure, op.path);
  const { decoded, bytes } = loaded;
  const normalized = normalizeLineEndings(decoded.text);
  const applied = await applyHunks(normalized.text, op.hunks, fuzzy, limits, signal);
  if (!applied.ok && applied.stop)
    return refused(failure(applied.stop, `${where.relative}: ${applied.reason}.`), op.path);
  if (!applied.ok) {
    return refused(
      failure(
        'patch_conflict',
        `Hunk ${applied.hunk + 1} of ${where.relative} does not apply: ${applied.reason}. Read the file again and redo that hunk.`,
        { hunk_index: applied.hunk, ...(applied.candidates ? { candidate_lines: applied.candidates } : {}) },
      ),
      op.path,
    );
  }
  const done = applyReplacements(decoded.text, normalized, applied.replacements);
  const output = Buffer.concat([bytes.subarray(0, decoded.bomBytes), encodeText(done.text, decoded.encoding)]);
  if (op.moveTo === undefined) {
    return {
      ok: true,
      file: {
        op: 'update',
        relative: where.relative,
        before: normalized.text,
        after: done.after,
        hunks: applied.hunks,
        changes: [{ kind: 'replace', path: where.path, data: output, expected: bytes }],
        real: [where.path],
      },
    };
  }
  const target = await ws.resolve(op.moveTo, 'write');
  if (!target.success) return refused(target, op.moveTo);
  if (target.exists) {
    return refused(
      failure('already_exists', `${target.relative} already exists; a patch never moves a file over another.`),
      op.moveTo,
    );
  }
  return {
    ok: true,
    file: {
      op: 'move',
      relative: target.relative,
      from: where.relative,
      before: normalized.text,
      after: done.after,
      hunks: applied.hunks,
      changes: [
        { kind: 'create', path: target.path, data: output },
        { kind: 'delete', path: where.path, expected: bytes },
      ],
      real: [target.path, where.path],
    },
  };
}

/** Every file of a patch planned against its current content; the first that cannot be is the failure. */
export async function planPatch(
  ws: Workspace,
  ops: readonly PatchOp[],
  fuzzy: boolean,
  limits: EditorLimits,
  signal?: AbortSignal,
): Promise<{ ok: true; files: Planned[] } | { ok: false; failure: EditorFailure }> {
  const files: Planned[] = [];
  const seen = new Set<string>();
  for (const op of ops) {
    const plan =
      op.op === 'add' ? await planAdd(ws, op.path, op.content) : await planExisting(ws, op, fuzzy, limits, signal);
    if (!plan.ok) return plan;
    for (const real of plan.file.real) {
      if (seen.has(real)) {
        return refused(
          failure(
            'invalid_patch',
            `${ws.relative(real)} appears twice in the patch; put all its hunks under one header.`,
          ),
          op.path,
        ) as { ok: false; failure: EditorFailure };
      }
      seen.add(real);
    }
    files.push(plan.file);
  }
  return { ok: true, files };
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
  const parsed = parsePatch(args.patch);
  if (!parsed.ok) {
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
  const files = planned.files.map((f) => {
    const d = fileDiff(
      f.before,
      f.after,
      {
        old: f.op === 'add' ? '/dev/null' : `a/${f.from ?? f.relative}`,
        new: f.op === 'delete' ? '/dev/null' : `b/${f.relative}`,
      },
      { context: limits.diffContextLines, maxLines: Math.max(budget, 1), maxLineChars: limits.maxDiffLineChars },
    );
    if (budget > 0) {
      diffs.push(d.diff);
      budget -= d.diff.split('\n').length;
      truncated ||= d.truncated;
    } else truncated = true;
    added += d.added;
    removed += d.removed;
    return {
      op: f.op,
      relative: f.relative,
      ...(f.from !== undefined ? { from: f.from } : {}),
      added: d.added,
      removed: d.removed,
      ...(f.hunks ? { hunks: f.hunks } : {}),
    };
  });
  const loose = files.reduce((n, f) => n + (f.hunks?.filter((h) => h.strategy !== 'exact').length ?? 0), 0);
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
        .map((f) => `${f.op} ${f.relative}`)
        .join(', ')
        .slice(0, 400)}; +${added} -${removed} lines)` +
      `${loose ? `; ${loose} hunk${loose === 1 ? '' : 's'} matched loosely, see files[].hunks` : ''}.`,
  };
}
