import { relative, sep } from 'node:path';
import { isInside } from '../inside.js';

export { isInside };

/** Posix-style path of `absolute` relative to `root`, '.' for the root itself. */
export function posixRelative(root: string, absolute: string): string {
  const rel = relative(root, absolute);
  if (rel === '') return '.';
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/**
 * `dir/name` for a normalized absolute directory and one plain name (no separator, not `.` or `..`): what
 * `path.join` gives, without normalizing the whole path again.
 */
export const childPath = (dir: string, name: string): string =>
  dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;

/**
 * The components of a relative path made only of plain names (no empty, `.` or `..` component, so no leading or
 * trailing slash either), which is then its own normal form; undefined for anything else. Only where the separator
 * is `/`.
 */
export function plainParts(path: string): string[] | undefined {
  if (sep !== '/') return undefined;
  const parts = path.split('/');
  for (const part of parts) if (part === '' || part === '.' || part === '..') return undefined;
  return parts;
}

/** Splits a root-relative native path into its components. */
export function components(rel: string): string[] {
  return rel === '' || rel === '.' ? [] : rel.split(sep).filter((part) => part !== '' && part !== '.');
}

/** Lexical prefixes of kernel pseudo-filesystems whose entries can alias anything on the machine. */
export const PSEUDO_ROOTS: readonly string[] = ['/proc', '/dev', '/sys'];

/** True when an absolute path lies in a pseudo-filesystem (and the workspace itself does not). */
export function inPseudoFs(absolute: string, root: string): boolean {
  return PSEUDO_ROOTS.some((prefix) => isInside(prefix, absolute) && !isInside(prefix, root));
}
