import { isAbsolute, relative, sep } from 'node:path';

/**
 * True when the absolute path `candidate` is `root` itself or lies below it, decided on the names alone (no link is
 * followed; resolve first with the gate when links matter). Uses `path.relative`, so a sibling sharing a prefix
 * (`/ws-evil` for `/ws`) never passes, while a name inside that merely starts with two dots (`/ws/..cache`) does.
 */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  if (rel === '') return true;
  return !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
}
