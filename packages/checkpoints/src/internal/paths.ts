import { failure } from '../errors.js';

/**
 * Checks restore and diff paths: relative to the workspace, inside it, no `..`; returns them in git's form (no
 * leading `./`, no trailing `/`), or a failure naming the bad one.
 */
export function normalizePaths(paths: readonly string[] | undefined) {
  const out: string[] = [];
  for (const raw of paths ?? []) {
    const path = raw.replace(/^(\.\/)+/u, '').replace(/\/+$/u, '');
    const parts = path.split('/');
    if (raw.trim() === '' || path.startsWith('/') || raw.includes('\0') || parts.some((p) => p === '..')) {
      return failure(
        'invalid_path',
        `${JSON.stringify(raw)} is not a path inside the workspace; give paths relative to the workspace root, without "..".`,
      );
    }
    if (path === '' || path === '.') return { success: true as const, paths: [] as string[] };
    out.push(path);
  }
  return { success: true as const, paths: out };
}
