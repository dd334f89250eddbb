import type { TouchedMove, Touches } from '@bough/core';
import { patchFiles } from './patch-files.js';
import type { EditorRequest } from './schema.js';

/**
 * What an editor request changes, dry runs included (a check that passes a dry run must pass the real one): the
 * file of write, edit and multi_edit; the directory of mkdir; both names of a move; and every file of a patch, read
 * by the same parser the patch action applies (an update with `Move to` is a move of the old name to the new one).
 * A patch the editor cannot parse touches nothing: it is refused before anything is written.
 */
export function editorTouches(request: EditorRequest): Touches {
  const path = request.file_path;
  switch (request.action) {
    case 'patch':
      return patchTouches(request.patch);
    case 'move':
      return path !== undefined && request.destination !== undefined
        ? { move: [{ from: path, to: request.destination }] }
        : {};
    case 'mkdir':
      return path !== undefined ? { create: [path] } : {};
    default:
      return path !== undefined ? { write: [path] } : {};
  }
}

function patchTouches(patch: string | undefined): Touches {
  if (typeof patch !== 'string') return {};
  const parsed = patchFiles(patch);
  if (!parsed.success) return {};
  const write: string[] = [];
  const create: string[] = [];
  const remove: string[] = [];
  const move: TouchedMove[] = [];
  for (const file of parsed.files) {
    if (file.kind === 'add') create.push(file.path);
    else if (file.kind === 'delete') remove.push(file.path);
    else if (file.kind === 'update') write.push(file.path);
    else {
      // `move_to` follows the update of the old name: the update becomes a move (its content changes on the way).
      const from = write.pop();
      if (from !== undefined) move.push({ from, to: file.path });
      else create.push(file.path);
    }
  }
  return {
    ...(write.length > 0 ? { write } : {}),
    ...(create.length > 0 ? { create } : {}),
    ...(remove.length > 0 ? { delete: remove } : {}),
    ...(move.length > 0 ? { move } : {}),
  };
}
