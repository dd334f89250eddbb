/**
 * The lower-case extension of a path's last segment, without the dot: `'src/App.TSX'` → `'tsx'`. A name with no dot,
 * or whose only dot is its first character (`.gitignore`), has none (`''`). The tools use it to pick a language.
 */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}
