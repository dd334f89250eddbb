/**
 * True when no lexical rule of the workspace gate can refuse `path`, whatever its directory: within the path length
 * limit, not blank, no '~' start, no NUL or backslash, and every component a plain name within the name limit. Only
 * such paths are confirmed through a gate check of their parent directory (shared by the files in it); any other path
 * goes through the gate by itself.
 */
export function plainPath(
  path: string,
  limits: { readonly maxPathLength: number; readonly maxNameBytes: number },
): boolean {
  if (path.length > limits.maxPathLength || path.trim() === '' || path.startsWith('~') || /[\\\0]/.test(path)) {
    return false;
  }
  return path
    .split('/')
    .every((part) => part !== '' && part !== '.' && part !== '..' && Buffer.byteLength(part) <= limits.maxNameBytes);
}
