import { DEFAULT_PROTECTED, isProtectedName, type ProtectedNamePolicy } from '@bough/workspace';

/**
 * ripgrep flags every search uses: no config file, hidden files on, `.git` off, no symlink following, and (with
 * `debug`, the default) the debug log on stderr, from which the response counts what was skipped and why.
 */
export function baseRgArgs(includeIgnored: boolean, debug = true): string[] {
  // --no-require-git: honour .gitignore even when the workspace is not (yet) a git repository.
  const args = ['--no-config', '--hidden', '--no-require-git', '--color=never', ...(debug ? ['--debug'] : [])];
  args.push('--iglob=!.git');
  if (includeIgnored) args.push('--no-ignore');
  return args;
}

/** True when any component of a relative path is a protected name (checked on every result, whatever rg did). */
export function isProtectedPath(relative: string, policy: ProtectedNamePolicy = DEFAULT_PROTECTED): boolean {
  return relative.split('/').some((part) => part !== '' && isProtectedName(part, policy));
}

// Directory verdicts a checker remembers before it starts over (listings rarely have more directories than this).
const MAX_REMEMBERED_DIRS = 4096;

/**
 * {@link isProtectedPath} for many paths of one listing: the verdict on a directory (any of its components
 * protected) is worked out once and remembered, so each further path in it costs one check of its own name.
 */
export class ProtectedPathCheck {
  readonly #policy: ProtectedNamePolicy;
  readonly #dirs = new Map<string, boolean>();

  constructor(policy: ProtectedNamePolicy = DEFAULT_PROTECTED) {
    this.#policy = policy;
  }

  /** Same answer as `isProtectedPath(relative, policy)`. */
  test(relative: string): boolean {
    const slash = relative.lastIndexOf('/');
    const name = relative.slice(slash + 1);
    if (name !== '' && isProtectedName(name, this.#policy)) return true;
    if (slash < 0) return false;
    const dir = relative.slice(0, slash);
    let verdict = this.#dirs.get(dir);
    if (verdict === undefined) {
      verdict = isProtectedPath(dir, this.#policy);
      if (this.#dirs.size >= MAX_REMEMBERED_DIRS) this.#dirs.clear();
      this.#dirs.set(dir, verdict);
    }
    return verdict;
  }
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
