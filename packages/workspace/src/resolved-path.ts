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

/**
 * Where a symbolic link on the way may lead, for a caller with rules about paths (a permission policy): given the real
 * path a request reached through a link (relative to the root, forward slashes) and the intent, a sentence saying why
 * it may not go there, or undefined to let it through. The gate asks only when it followed a link, mapped an alias of
 * the root, or was given an absolute path (which the caller may have spelled from another name of the root); a
 * relative path with no link on the way reaches the place it names, which the caller can judge as asked.
 */
export type LinkRule = (real: string, intent: PathIntent) => string | undefined;
