import type { Touches } from '@bough/core';
import type { CodeCheckRequest } from './schema.js';

/**
 * What a code_check request reads: each of its `paths` (files, or directories and the files under them); no paths,
 * or only blank ones, is the root (so is `.`), a check of the whole workspace.
 */
export function codeCheckTouches(request: CodeCheckRequest): Touches {
  const paths = request.paths.filter((path) => path !== '');
  if (paths.length === 0) return { read: ['.'], workspace: true };
  return paths.includes('.') ? { read: paths, workspace: true } : { read: paths };
}
