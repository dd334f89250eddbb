import { DEFAULT_PROTECTED, isProtectedName, type ProtectedNamePolicy } from '@bough/workspace';

/**
 * ripgrep flags every search uses: no config file, hidden files on, `.git` off, no symlink following, and the debug
 * log on stderr, from which the response counts what was skipped and why.
 */
export function baseRgArgs(includeIgnored: boolean): string[] {
  // --no-require-git: honour .gitignore even when the workspace is not (yet) a git repository.
  const args = ['--no-config', '--hidden', '--no-require-git', '--color=never', '--debug', '--iglob=!.git'];
  if (includeIgnored) args.push('--no-ignore');
  return args;
}

/** True when any component of a relative path is a protected name (checked on every result, whatever rg did). */
export function isProtectedPath(relative: string, policy: ProtectedNamePolicy = DEFAULT_PROTECTED): boolean {
  return relative.split('/').some((part) => part !== '' && isProtectedName(part, policy));
}

/** Joins a ripgrep path (relative to its cwd) onto the workspace-relative prefix of that cwd. */
export function toWorkspacePath(prefix: string, rgPath: string): string {
  const clean = rgPath.startsWith('./') ? rgPath.slice(2) : rgPath;
  return prefix === '' || prefix === '.' ? clean : `${prefix}/${clean}`;
}

/** Makes a path safe to show on one line: control characters are written as escapes. */
export function displayPath(path: string): string {
  return path.replace(/[\u0000-\u001f\u007f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
