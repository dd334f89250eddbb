/** What a caller means to do with a path; decides which kinds are acceptable and whether `.git` is off-limits. */
export type PathIntent = 'read' | 'write' | 'list';

/** A path that passed every workspace rule, in both the real absolute form and a display form. */
export interface ResolvedPath {
  readonly success: true;
  /** Absolute real path (or real parent + remaining names when it does not exist yet). */
  readonly path: string;
  /** Posix-style path relative to the root, '.' for the root. */
  readonly relative: string;
  readonly exists: boolean;
  readonly kind: 'file' | 'directory' | 'other' | 'missing';
}
