import type { Touches } from '@bough/core';
import type { AstSearchRequest } from './schema.js';

/**
 * What an ast_search request reads: its `path` (a file, or a directory and the files under it); empty or `.` is the
 * root, a read of the whole workspace.
 */
export function astSearchTouches(request: AstSearchRequest): Touches {
  return rootOr(request.path);
}

function rootOr(path: string): Touches {
  return path === '' || path === '.' ? { read: ['.'], workspace: true } : { read: [path] };
}
