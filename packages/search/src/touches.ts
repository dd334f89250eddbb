import type { Touches } from '@bough/core';
import type { SearchRequest } from './schema.js';

/**
 * What a search reads: its `path` (a file, or a directory and everything under it). A missing or blank path is the
 * root, which is also a search of the whole workspace: results under paths a policy withholds are left out
 * (`SearchOptions.hidden`).
 */
export function searchTouches(request: SearchRequest): Touches {
  const path = request.path === undefined || request.path === '' ? '.' : request.path;
  return path === '.' ? { read: ['.'], workspace: true } : { read: [path] };
}
