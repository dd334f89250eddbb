import { drive, finish, type Paced, WorkMeter } from '@bough/workspace/internal';
import { PatchLines } from './patch-lines.js';
/** One hunk of an update: old lines (context and removed) replaced by new lines (context and added). */
export interface PatchHunk {
  /** apply_patch `@@ <line>`: a line the hunk comes after (usually the enclosing function or class). */
  context?: string;
  oldLines: string[];
  newLines: string[];
  /** apply_patch `*** End of File`: the old lines end the file. */
  eof: boolean;
  /** Unified diff: 1-based first old line from the `@@ -a,b` header. */
  oldStart?: number;
  /** Unified diff `\ No newline at end of file` after the old or new side. */
  oldNoNewline?: boolean;
  newNoNewline?: boolean;
}

/**
 * One file operation of a patch. An added file's `content` keeps the line endings the patch gives its lines (CRLF,
 * LF or a mix). `executable` is a git mode line (`new file mode`, `new mode`): true for 100755, false for 100644,
 * absent when the patch says nothing about the mode (an updated or moved file then keeps its own).
 */
export type PatchOp =
  | { op: 'add'; path: string; content: string; executable?: boolean }
  | { op: 'delete'; path: string }
  | { op: 'update'; path: string; moveTo?: string; hunks: PatchHunk[]; executable?: boolean };

/**
 * A parsed patch, or why it could not be read (with the 1-based patch line); `unsupported` marks a well-formed
 * patch asking for what the editor does not do (binary content, a symlink or submodule mode, a copy).
 */
export type ParsedPatch =
  | { ok: true; format: 'apply_patch' | 'unified'; ops: PatchOp[] }
  | { ok: false; line: number; reason: string; unsupported?: true };

const bad = (line: number, reason: string): ParsedPatch => ({ ok: false, line, reason });
const unsupported = (line: number, reason: string): ParsedPatch => ({ ok: false, line, reason, unsupported: true });

/** Reads a patch in the apply_patch format or as a unified diff, chosen by its first line, in one go. */
export function parsePatch(text: string): ParsedPatch {
  return finish(pacedParse(text, new WorkMeter(Number.POSITIVE_INFINITY), true));
}

/**
 * {@link parsePatch} through the very same steps, but keeping no hunk lines and no added content: the ops it gives
 * have empty `hunks` and `content`, and it accepts and refuses exactly what {@link parsePatch} does. For callers that
 * only want the files (permission checks, touches), at a fraction of the time and garbage.
 */
export function parsePatchFiles(text: string): ParsedPatch {
  return finish(pacedParse(text, new WorkMeter(Number.POSITIVE_INFINITY), false));
}

/**
 * {@link parsePatch} that returns to the event loop every few milliseconds (a patch of a few megabytes takes a while
 * to read), stopping with `aborted` at the first pause after `signal` aborts.
 */
export async function parsePatchPaced(text: string, signal?: AbortSignal): Promise<ParsedPatch | 'aborted'> {
  const meter = new WorkMeter(Number.POSITIVE_INFINITY, signal);
  const driven = await drive(pacedParse(text, meter, true), meter);
  return driven.ok ? driven.value : 'aborted';
}

function* pacedParse(text: string, meter: WorkMeter, keep: boolean): Paced<ParsedPatch> {
  let lines = yield* PatchLines.split(text, meter);
  let skip = 0;
  while (skip < lines.length && lines.at(skip)!.trim() === '') skip++;
  lines = lines.window(skip, lines.length);
  const first = lines.at(0)?.trim() ?? '';
  // A heredoc wrapper (<<'EOF' ... EOF) as some models send it.
  if (
    /^<<\s*['"]?EOF['"]?$/u.test(first) &&
    lines.length >= 3 &&
    lines
      .at(lines.length - 1)!
      .trim()
      .endsWith('EOF')
  ) {
    lines = lines.window(1, lines.length - 1);
  }
  const head = lines.at(0)?.trim() ?? '';
  if (head === '*** Begin Patch') return yield* parseApplyPatch(lines, meter, keep);
  if (/^(diff --git |--- |Index: |diff -)/u.test(lines.at(0) ?? '')) return yield* parseUnified(lines, meter, keep);
  return bad(
    1,
    "A patch starts with '*** Begin Patch' (apply_patch format) or with 'diff --git' / '--- ' (a unified diff).",
  );
}

const MINUS = 45; // '-'
const PLUS = 43; // '+'
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';

function* parseApplyPatch(lines: PatchLines, meter: WorkMeter, keep: boolean): Paced<ParsedPatch> {
  let end = lines.length - 1;
  while (end > 0 && lines.at(end)!.trim() === '') end--;
  if (lines.at(end)!.trim() !== '*** End Patch')
    return bad(end + 1, "The last line of the patch must be '*** End Patch'.");
  const ops: PatchOp[] = [];
  let i = 1;
  while (i < end) {
    meter.note(1);
    if (meter.due()) yield;
    const line = lines.at(i)!.trim();
    if (line === '') {
      i++;
      continue;
    }
    if (line.startsWith(ADD)) {
      const path = line.slice(ADD.length).trim();
      const body: string[] = [];
      i++;
      for (; i < end && lines.at(i)!.startsWith('+'); i++) {
        if (keep) body.push(`${lines.at(i)!.slice(1)}${lines.crAt(i) ? '\r' : ''}\n`);
      }
      ops.push({ op: 'add', path, content: body.join('') });
      continue;
    }
    if (line.startsWith(DELETE)) {
      ops.push({ op: 'delete', path: line.slice(DELETE.length).trim() });
      i++;
      continue;
    }
    if (!line.startsWith(UPDATE)) {
      return bad(
        i + 1,
        `'${line.slice(0, 80)}' is not a file header: use '*** Add File: P', '*** Update File: P' or '*** Delete File: P'.`,
      );
    }
    const path = line.slice(UPDATE.length).trim();
    const headerLine = i + 1;
    i++;
    let moveTo: string | undefined;
    if (i < end && lines.at(i)!.trim().startsWith(MOVE)) {
      moveTo = lines.at(i)!.trim().slice(MOVE.length).trim();
      i++;
    }
    const hunks: PatchHunk[] = [];
    let found = 0; // hunks read (kept in `hunks` only when `keep`)
    while (i < end) {
      meter.note(1);
      if (meter.due()) yield;
      const raw = lines.at(i)!;
      if (raw.startsWith('***') && raw.trim() !== '*** End of File') break;
      const hunk: PatchHunk = { oldLines: [], newLines: [], eof: false };
      if (raw.trim() === '@@' || raw.startsWith('@@ ')) {
        const context = raw.trim() === '@@' ? '' : raw.slice(3);
        if (context.trim() !== '') hunk.context = context;
        i++;
      } else if (found > 0 && raw.trim() === '') {
        i++;
        continue;
      } else if (found > 0) {
        return bad(i + 1, `Expected '@@' to start the next hunk of ${path}, got '${raw.slice(0, 80)}'.`);
      }
      let count = 0;
      while (i < end) {
        // A '-' or '+' line is a body line whatever follows: when its text is not kept, it is never cut out.
        const first = lines.firstCode(i);
        if (!keep && (first === MINUS || first === PLUS)) {
          count++;
          i++;
          continue;
        }
        const body = lines.at(i)!;
        if (body.trim() === '*** End of File') {
          hunk.eof = true;
          i++;
          break;
        }
        const mark = body === '' ? ' ' : body[0];
        if (mark !== ' ' && mark !== '-' && mark !== '+') break;
        if (keep) {
          const text = body.slice(1);
          if (mark !== '+') hunk.oldLines.push(text);
          if (mark !== '-') hunk.newLines.push(text);
        }
        count++;
        i++;
      }
      if (count === 0) return bad(i + 1, `A hunk of ${path} has no lines.`);
      if (keep) hunks.push(hunk);
      found++;
    }
    if (found === 0 && moveTo === undefined) return bad(headerLine, `'*** Update File: ${path}' has no hunks.`);
    ops.push({ op: 'update', path, ...(moveTo !== undefined ? { moveTo } : {}), hunks });
  }
  if (ops.length === 0) {
    return bad(
      1,
      "The patch holds no file sections: put '*** Add/Update/Delete File: P' sections between its markers.",
    );
  }
  return { ok: true, format: 'apply_patch', ops };
}

function diffPath(raw: string): string | null {
  let path = raw.split('\t')[0]!.trim();
  if (path.startsWith('"') && path.endsWith('"')) {
    try {
      path = JSON.parse(path) as string;
    } catch {
      // keep as written
    }
  }
  if (path === '/dev/null') return null;
  return /^[ab]\//u.test(path) ? path.slice(2) : path;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/u;

/** A git mode line's mode as `executable`, or, for what a patch may not make (a link, a submodule), its name. */
function modeOf(value: string): boolean | string {
  const mode = value.trim();
  if (mode === '100755') return true;
  if (mode === '100644') return false;
  if (mode === '120000') return 'a symbolic link';
  if (mode === '160000') return 'a submodule';
  return `mode ${mode.slice(0, 12)}`;
}

const BINARY = /^GIT binary patch|^Binary files /u;
const binary = (line: number) =>
  unsupported(line, 'Binary patches are not supported; only text diffs are applied. Write such files another way.');

function* parseUnified(lines: PatchLines, meter: WorkMeter, keep: boolean): Paced<ParsedPatch> {
  const ops: PatchOp[] = [];
  let i = 0;
  while (i < lines.length) {
    meter.note(1);
    if (meter.due()) yield;
    const line = lines.at(i)!;
    if (!line.startsWith('diff --git ') && !line.startsWith('--- ')) {
      if (BINARY.test(line)) return binary(i + 1);
      i++;
      continue;
    }
    let oldPath: string | null | undefined;
    let newPath: string | null | undefined;
    let renameFrom: string | undefined;
    let renameTo: string | undefined;
    let created = false;
    let deleted = false;
    let executable: boolean | undefined;
    const start = i;
    if (line.startsWith('diff --git ')) {
      const m = /^diff --git a\/(.+) b\/(.+)$/u.exec(line);
      if (m) {
        oldPath = m[1]!;
        newPath = m[2]!;
      }
      i++;
      while (i < lines.length && !lines.at(i)!.startsWith('--- ') && !lines.at(i)!.startsWith('diff --git ')) {
        const meta = lines.at(i)!;
        const mode = /^(new file|deleted file|old|new) mode (.*)$/u.exec(meta);
        if (mode) {
          const kind = modeOf(mode[2]!);
          if (typeof kind === 'string') {
            return unsupported(i + 1, `'${meta.slice(0, 40)}' makes ${kind}; a patch here only handles regular files.`);
          }
          if (mode[1] === 'new file') created = true;
          if (mode[1] === 'deleted file') deleted = true;
          if (mode[1] === 'new file' || mode[1] === 'new') executable = kind;
        } else if (meta.startsWith('rename from ')) renameFrom = meta.slice(12).trim();
        else if (meta.startsWith('rename to ')) renameTo = meta.slice(10).trim();
        else if (meta.startsWith('copy from ') || meta.startsWith('copy to ')) {
          return unsupported(i + 1, 'Copies (copy from/copy to) are not applied; add the new file with its content.');
        } else if (BINARY.test(meta)) return binary(i + 1);
        i++;
      }
    }
    const hunks: PatchHunk[] = [];
    let found = 0; // hunks read (kept in `hunks` only when `keep`)
    const addedCr: boolean[] = []; // which lines of the first hunk's new side end in CRLF (for an added file)
    if (i < lines.length && lines.at(i)!.startsWith('--- ')) {
      if (!lines.at(i + 1)?.startsWith('+++ ')) return bad(i + 2, "A '--- ' line must be followed by a '+++ ' line.");
      oldPath = diffPath(lines.at(i)!.slice(4));
      newPath = diffPath(lines.at(i + 1)!.slice(4));
      i += 2;
      while (i < lines.length && lines.at(i)!.startsWith('@@')) {
        meter.note(1);
        if (meter.due()) yield;
        const m = HUNK_HEADER.exec(lines.at(i)!);
        if (!m) return bad(i + 1, `'${lines.at(i)!.slice(0, 80)}' is not a hunk header like '@@ -1,3 +1,4 @@'.`);
        let oldLeft = m[2] === undefined ? 1 : Number(m[2]);
        let newLeft = m[4] === undefined ? 1 : Number(m[4]);
        const hunk: PatchHunk = { oldLines: [], newLines: [], eof: false, oldStart: Number(m[1]) };
        i++;
        let last: ' ' | '-' | '+' = ' ';
        while (i < lines.length && (oldLeft > 0 || newLeft > 0 || lines.at(i)!.startsWith('\\'))) {
          const body = lines.at(i)!;
          if (body.startsWith('\\')) {
            if (last !== '+') hunk.oldNoNewline = true;
            if (last !== '-') hunk.newNoNewline = true;
            i++;
            continue;
          }
          const mark = body === '' ? ' ' : body[0];
          const text = keep ? body.slice(1) : '';
          const first = keep && found === 0;
          if (mark === ' ' && oldLeft > 0 && newLeft > 0) {
            if (keep) {
              hunk.oldLines.push(text);
              hunk.newLines.push(text);
            }
            if (first) addedCr.push(lines.crAt(i));
            oldLeft--;
            newLeft--;
          } else if (mark === '-' && oldLeft > 0) {
            if (keep) hunk.oldLines.push(text);
            oldLeft--;
          } else if (mark === '+' && newLeft > 0) {
            if (keep) hunk.newLines.push(text);
            if (first) addedCr.push(lines.crAt(i));
            newLeft--;
          } else {
            return bad(i + 1, `The hunk ending near line ${i + 1} has fewer lines than its '@@' header says.`);
          }
          last = mark as ' ' | '-' | '+';
          i++;
        }
        if (oldLeft > 0 || newLeft > 0) return bad(i, 'The patch ends in the middle of a hunk.');
        if (keep) hunks.push(hunk);
        found++;
      }
    }
    if (renameFrom !== undefined) oldPath = renameFrom;
    if (renameTo !== undefined) newPath = renameTo;
    if (created || oldPath === null) {
      if (!newPath) return bad(start + 1, 'A new file needs a name.');
      const hunk = hunks[0];
      const added = (hunk?.newLines ?? []).map((text, k) => (addedCr[k] ? `${text}\r` : text));
      const body = added.join('\n') + (added.length && !hunk?.newNoNewline ? '\n' : '');
      ops.push({ op: 'add', path: newPath, content: body, ...(executable ? { executable } : {}) });
    } else if (deleted || newPath === null) {
      if (!oldPath) return bad(start + 1, 'A deleted file needs a name.');
      ops.push({ op: 'delete', path: oldPath });
    } else {
      if (!oldPath || !newPath) return bad(start + 1, "Each file needs '--- ' and '+++ ' lines (or a git rename).");
      if (found === 0 && oldPath === newPath && executable === undefined) {
        return bad(start + 1, `The diff of ${oldPath} has no hunks.`);
      }
      ops.push({
        op: 'update',
        path: oldPath,
        ...(newPath !== oldPath ? { moveTo: newPath } : {}),
        hunks,
        ...(executable !== undefined ? { executable } : {}),
      });
    }
  }
  if (ops.length === 0) return bad(1, 'The diff holds no file changes.');
  return { ok: true, format: 'unified', ops };
}
