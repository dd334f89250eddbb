import type { Workspace } from '@bough/workspace';
import { failure } from './errors.js';
import type { EditorResponse } from './schema.js';

/** The `move` action: a rename inside the workspace through the gate at both ends; a dry run only checks. */
export async function moveAction(
  ws: Workspace,
  from: string,
  to: string | undefined,
  overwrite: boolean,
  dryRun: boolean,
): Promise<EditorResponse> {
  if (to === undefined) return failure('invalid_request', "action 'move' needs 'destination': the new path.");
  if (dryRun) {
    const src = await ws.resolve(from, 'write');
    if (!src.success) return src;
    if (src.kind !== 'file' && src.kind !== 'directory') {
      return failure('not_found', `Nothing that can be moved exists at ${JSON.stringify(from)}.`);
    }
    const dst = await ws.resolve(to, 'write');
    if (!dst.success) return dst;
    if (dst.exists && (!overwrite || src.kind === 'directory')) {
      return failure(
        'already_exists',
        `${JSON.stringify(to)} already exists; set overwrite to replace a file, or pick another name.`,
      );
    }
    return {
      success: true,
      action: 'move',
      from: src.relative,
      relative: dst.relative,
      path: dst.path,
      kind: src.kind,
      overwrote: dst.exists,
      dry_run: true,
      message: `Dry run, nothing moved: ${src.relative} would move to ${dst.relative}${dst.exists ? ' (replacing it)' : ''}.`,
    };
  }
  const moved = await ws.move(from, to, { overwrite });
  if (!moved.success) return moved;
  return {
    success: true,
    action: 'move',
    from: moved.from,
    relative: moved.relative,
    path: moved.path,
    kind: moved.kind,
    overwrote: moved.overwrote,
    message: `Moved ${moved.kind} ${moved.from} to ${moved.relative}${moved.overwrote ? ' (replaced the file that was there)' : ''}.`,
  };
}

/** The `mkdir` action: the directory and any missing parents, made one verified level at a time (no link followed). */
export async function mkdirAction(ws: Workspace, path: string, dryRun: boolean): Promise<EditorResponse> {
  const where = await ws.resolve(path.replace(/\/+$/u, '') || path, 'list');
  const existed = where.success && where.kind === 'directory';
  if (dryRun) {
    const check = existed ? where : await ws.resolve(path.replace(/\/+$/u, '') || path, 'write');
    if (!check.success) return check;
    return {
      success: true,
      action: 'mkdir',
      relative: check.relative,
      path: check.path,
      created: !existed,
      dry_run: true,
      message: `Dry run, nothing made: ${check.relative} ${existed ? 'already exists' : 'would be created'}.`,
    };
  }
  const made = await ws.mkdir(path);
  if (!made.success) return made;
  const relative = ws.relative(made.path);
  return {
    success: true,
    action: 'mkdir',
    relative,
    path: made.path,
    created: !existed,
    message: existed ? `${relative} already exists as a directory.` : `Created directory ${relative}.`,
  };
}
