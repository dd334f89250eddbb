import type { FileChange, OpenedFile, Workspace } from '@bough/workspace';
import type { Change } from '@bough/workspace/internal';
import { drive, TURN_MS, Turns, WorkMeter } from '@bough/workspace/internal';
import { type EditorFailure, failure } from '../errors.js';
import type { EditorLimits } from '../limits.js';
import { replacing } from './apply-edit.js';
import { normalizeLineEndings } from './line-endings.js';
import { decodeLoaded, loadBytes } from './load-text.js';
import { applyHunks, type HunkReport } from './patch-apply.js';
import { bytesAsText, bytesForDisplay, hunksAsBytes, modeFor, patchableAsBytes, textAsBytes } from './patch-bytes.js';
import type { PatchHunk, PatchOp } from './patch-parse.js';
import { encodeText, firstLoneSurrogate } from './text-codec.js';

/** One file of a patch as it will be written, with what the response reports of it. */
export interface Planned {
  op: 'add' | 'update' | 'delete' | 'move';
  relative: string;
  from?: string;
  before: string;
  after: string;
  hunks?: HunkReport[];
  /** The replacements made, as changes of `before` into `after` (absent when those are shown bytes, not the text). */
  edits?: Change[];
  /** Permission bits a git mode line set (reported; absent when the file keeps its own). */
  mode?: number;
  changes: FileChange[];
  real: string[];
}

type LoadedFileInfo = Omit<OpenedFile, 'handle'>;

type Plan = { ok: true; file: Planned } | { ok: false; failure: EditorFailure };

const refused = (f: EditorFailure, path: string): Plan => ({
  ok: false,
  failure: {
    ...f,
    error: `${f.error} (patch file ${JSON.stringify(path)}; nothing was written)`,
    file: path,
  } as EditorFailure,
});

async function planAdd(ws: Workspace, path: string, content: string, executable?: boolean): Promise<Plan> {
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
      after: normalizeLineEndings(content).text,
      ...(executable ? { mode: 0o755 } : {}),
      // The content keeps the line endings the patch gave each line; a 100755 file is made executable, like git.
      changes: [
        {
          kind: 'create',
          path: where.path,
          data: Buffer.from(content, 'utf8'),
          ...(executable ? { mode: 0o755 } : {}),
        },
      ],
      real: [where.path],
    },
  };
}

async function planExisting(
  ws: Workspace,
  op: Extract<PatchOp, { op: 'update' | 'delete' }>,
  fuzzy: boolean,
  limits: EditorLimits,
  signal: AbortSignal | undefined,
  turns: Turns,
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
  await turns.pace();
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
  const bytes = read.bytes;
  const source = sourceOf(read.file, bytes, op.hunks, fuzzy);
  if (!source.ok) return refused(source.failure, op.path);
  const normalized = normalizeLineEndings(source.text);
  const applied = await applyHunks(normalized.text, source.hunks, source.fuzzy, limits, signal);
  if (!applied.ok && applied.stop)
    return refused(failure(applied.stop, `${where.relative}: ${applied.reason}.`), op.path);
  if (!applied.ok) {
    const why = `Hunk ${applied.hunk + 1} of ${where.relative} does not apply: ${applied.reason}.`;
    const extra = { hunk_index: applied.hunk, ...(applied.candidates ? { candidate_lines: applied.candidates } : {}) };
    return refused(
      source.asBytes
        ? failure(
            'unsupported_encoding',
            `${why} ${where.relative} is not UTF-8 text, so its hunks must match its bytes exactly (no loose matching, and a non-ASCII character in the patch stands for its UTF-8 bytes); the file was not touched.`,
            extra,
          )
        : failure('patch_conflict', `${why} Read the file again and redo that hunk.`, extra),
      op.path,
    );
  }
  const meter = new WorkMeter(Number.POSITIVE_INFINITY);
  const replaced = await drive(replacing(source.text, normalized, applied.replacements, meter), meter);
  // Without a signal or a finite budget the rewrite always runs to its end.
  if (!replaced.ok) throw new Error('an unbounded, uncancellable rewrite stopped early');
  const done = replaced.value;
  const output = source.encode(done.text);
  const before = source.show(normalized.text);
  const after = source.show(done.after);
  const edits = source.asBytes ? {} : { edits: done.changes };
  if (op.moveTo === undefined) {
    const mode = op.executable === undefined ? {} : { mode: modeFor(read.file.mode, op.executable) };
    return {
      ok: true,
      file: {
        op: 'update',
        relative: where.relative,
        before,
        after,
        hunks: applied.hunks,
        ...edits,
        ...mode,
        changes: [{ kind: 'replace', path: where.path, data: output, expected: bytes, ...mode }],
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
      before,
      after,
      hunks: applied.hunks,
      ...edits,
      ...(op.executable === undefined ? {} : { mode: modeFor(read.file.mode, op.executable) }),
      changes: [
        // The moved file keeps its mode (or takes the one a git mode line gives), as a rename would.
        { kind: 'create', path: target.path, data: output, mode: modeFor(read.file.mode, op.executable) },
        { kind: 'delete', path: where.path, expected: bytes },
      ],
      real: [target.path, where.path],
    },
  };
}

/** What an updated file's hunks are applied to: its decoded text, or its bytes when it is not text we decode. */
type Source =
  | {
      ok: true;
      asBytes: boolean;
      text: string;
      hunks: readonly PatchHunk[];
      fuzzy: boolean;
      encode: (text: string) => Buffer;
      show: (text: string) => string;
    }
  | { ok: false; failure: EditorFailure };

function sourceOf(file: LoadedFileInfo, bytes: Buffer, hunks: readonly PatchHunk[], fuzzy: boolean): Source {
  const loaded = decodeLoaded(file, bytes);
  if (loaded.ok) {
    const { decoded } = loaded;
    const bom = bytes.subarray(0, decoded.bomBytes);
    return {
      ok: true,
      asBytes: false,
      text: decoded.text,
      hunks,
      fuzzy,
      encode: (text) => Buffer.concat([bom, encodeText(text, decoded.encoding)]),
      show: (text) => text,
    };
  }
  if (!patchableAsBytes(bytes)) return loaded;
  // Not text we decode (Latin-1 and the like): patched on its bytes like git apply does, exact matches only.
  const { bom, text } = bytesAsText(bytes);
  return {
    ok: true,
    asBytes: true,
    text,
    hunks: hunksAsBytes(hunks),
    fuzzy: false,
    encode: (edited) => textAsBytes(bom, edited),
    show: bytesForDisplay,
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
  // The files are planned side by side (each waits on its own reads; nothing is written yet), then taken in patch
  // order, so the failure reported is still that of the first file that cannot be planned.
  // Small files are read synchronously, so the pieces are paced together to let other calls in between files.
  const turns = new Turns(TURN_MS);
  const plans = await Promise.all(
    ops.map(async (op) => {
      await turns.pace();
      return op.op === 'add'
        ? planAdd(ws, op.path, op.content, op.executable)
        : planExisting(ws, op, fuzzy, limits, signal, turns);
    }),
  );
  for (const [index, op] of ops.entries()) {
    const plan = plans[index]!;
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
