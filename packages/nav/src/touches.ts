import type { Touches } from '@bough/core';
import type { NavRequest } from './schema.js';

/**
 * What a code_nav request reads: its `path` (a file, or a directory and the source files under it); empty or `.` is
 * the root, a read of the whole workspace.
 */
export function navTouches(request: NavRequest): Touches {
  return rootOr(request.path);
}

function rootOr(path: string): Touches {
  return path === '' || path === '.' ? { read: ['.'], workspace: true } : { read: [path] };
}
