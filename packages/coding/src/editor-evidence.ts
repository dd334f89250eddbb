import { isAbsolute, join } from 'node:path';
import { type Touches, touchedPaths } from '@bough/core';
import { type EditorRequest, type EditorResponse, editorTouches } from '@bough/editor';
import type { GuardTarget, WriteEffect, WriteEvidenceOf, WrittenLines } from './source-evidence.js';

/** A whole-file replacement as far as evidence goes: every current line must be as read. */
const WHOLE = Object.freeze({ action: 'write' });

/** Ranges from the editor's `{ start_line, end_line }` records, skipping empty ones (a deletion writes no line). */
function rangesOf(items: readonly { start_line: number; end_line: number }[]): WrittenLines {
  return items.flatMap(({ start_line: start, end_line: end }) => (start >= 1 && end >= start ? [{ start, end }] : []));
}

/**
 * The files a patch names, as the editor declares them (its own parser reads the patch; one it cannot parse names
 * none and is refused before any write).
 */
function patchPaths(request: EditorRequest, touches: Touches | undefined): string[] {
  return touchedPaths(touches ?? editorTouches(request));
}

/** The `new_string` texts of an edit or multi_edit, to find where they went when the editor does not say. */
function newTexts(request: EditorRequest): string[] {
  const edits = request.action === 'multi_edit' && Array.isArray(request.edits) ? request.edits : [request];
  return edits.flatMap((edit) => (typeof edit.new_string === 'string' ? [edit.new_string] : []));
}

/** What editor requests change and what their results did, for the read-before-edit guard and the file state. */
export const editorEvidence: WriteEvidenceOf<EditorRequest, EditorResponse> = Object.freeze({
  kind: 'write',
  targets: (request: EditorRequest, touches?: Touches): readonly GuardTarget[] => {
    // A patch: exactly the files it would change, each as a whole-file change.
    if (request.action === 'patch') return patchPaths(request, touches).map((path) => ({ path, change: WHOLE }));
    // A rename keeps the content; only a file it would overwrite loses something the model must have seen.
    if (request.action === 'move')
      return request.overwrite === true ? [{ path: request.destination, change: WHOLE }] : [];
    if (request.action === 'mkdir') return [];
    return [{ path: request.file_path, change: request }];
  },
  checkedPaths: (request: EditorRequest, touches?: Touches): readonly string[] => {
    if (request.dry_run === true) return [];
    if (request.action === 'patch') return patchPaths(request, touches);
    const writes = request.action === 'write' || request.action === 'edit' || request.action === 'multi_edit';
    return writes && typeof request.file_path === 'string' ? [request.file_path] : [];
  },
  effects: (request: EditorRequest, result: EditorResponse, root: string): readonly WriteEffect[] => {
    // A failure or a dry run changed nothing.
    if (!result.success || request.dry_run === true || result.dry_run === true) return [];
    switch (result.action) {
      case 'mkdir':
        return [];
      case 'move':
        return [{ op: 'move', from: join(root, result.from), to: result.path }];
      case 'patch':
        return result.files.flatMap((file): WriteEffect[] => {
          const path = join(root, file.relative);
          const moved: WriteEffect[] =
            file.op === 'move' && file.from !== undefined ? [{ op: 'drop', path: join(root, file.from) }] : [];
          if (file.op === 'delete') return [...moved, { op: 'drop', path }];
          const lines = file.op === 'add' ? 'all' : rangesOf(file.hunks ?? []);
          return [...moved, { op: 'wrote', path, lines }];
        });
      default: {
        if (!isAbsolute(result.path)) return [];
        const lines =
          result.action === 'write'
            ? 'all'
            : result.action === 'multi_edit'
              ? rangesOf(result.edits)
              : rangesOf([result]);
        return [
          {
            op: 'wrote',
            path: result.path,
            ...(result.sha256 !== undefined ? { sha256: result.sha256 } : {}),
            lines,
            newText: newTexts(request),
          },
        ];
      }
    }
  },
});
