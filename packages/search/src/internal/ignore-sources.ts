// find can list with a name filter inside ripgrep (far less output) only when no ignore rule can apply, because a
// whitelist glob takes precedence over .gitignore in ripgrep and its --debug log would then hold one line per file.
// These checks say whether any ignore rule could apply to a walk: from the walked directory's ancestors (ripgrep reads
// their ignore files too), from git's global excludes file, and (while listing) from ignore files inside the tree.
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Per-directory ignore files ripgrep reads (lower case; compared case-insensitively to be safe on any filesystem). */
export const IGNORE_FILE_NAMES: readonly string[] = Object.freeze(['.gitignore', '.ignore', '.rgignore']);

/** Where git keeps per-repository excludes, relative to a directory holding `.git`. */
const GIT_EXCLUDE = join('.git', 'info', 'exclude');

// The checks below are synchronous: each is one stat (or a small config read) answered from the dentry cache, mostly
// of a name that is not there, which costs microseconds, where the promise form costs a thread-pool round trip each
// and there are about twenty of them per find.
function exists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Only "not there" counts as absent; anything else (permissions, loops) is treated as a possible rule.
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

function mentionsExcludesFile(path: string): boolean {
  if (!exists(path)) return false;
  try {
    return /excludesfile/i.test(readFileSync(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

/**
 * True when an ignore rule from outside the walked tree could apply to a walk rooted at `dir`: an ignore file or git
 * excludes file in `dir` or any ancestor, or a global git excludes file (named in a git config file under the home
 * directory, or the default one there). Errs towards true: a false "may apply" only costs speed, never correctness.
 */
export async function outsideIgnoreRulesMayApply(dir: string): Promise<boolean> {
  for (let at = dir; ; at = dirname(at)) {
    for (const name of IGNORE_FILE_NAMES) if (exists(join(at, name))) return true;
    if (exists(join(at, GIT_EXCLUDE))) return true;
    if (dirname(at) === at) break;
  }
  const homes = new Set([process.env.HOME, homedir()].filter((home): home is string => Boolean(home)));
  const configHomes = new Set([...homes].map((home) => join(home, '.config')));
  if (process.env.XDG_CONFIG_HOME) configHomes.add(process.env.XDG_CONFIG_HOME);
  for (const home of homes) if (mentionsExcludesFile(join(home, '.gitconfig'))) return true;
  for (const config of configHomes) {
    if (mentionsExcludesFile(join(config, 'git', 'config')) || exists(join(config, 'git', 'ignore'))) return true;
  }
  return false;
}

/** True when a listed path (relative, '/'-separated) is a file ripgrep reads ignore rules from. */
export function isIgnoreSource(path: string): boolean {
  const lower = path.toLowerCase();
  const base = lower.slice(lower.lastIndexOf('/') + 1);
  return IGNORE_FILE_NAMES.includes(base) || lower === '.git/info/exclude' || lower.endsWith('/.git/info/exclude');
}

/** True when any component of a relative path is `.git` (in any case): never a result. */
export function inGitDir(path: string): boolean {
  return path.split('/').some((part) => part.toLowerCase() === '.git');
}

/**
 * A ripgrep glob that matches at least every file name the find pattern can match (its last segment when that is a
 * literal name or `*` plus a literal suffix made of plain characters), or undefined when no such narrowing is safe.
 */
export function nameFilterFor(pattern: string): string | undefined {
  const clean = pattern.startsWith('./') ? pattern.slice(2) : pattern;
  const last = clean.slice(clean.lastIndexOf('/') + 1);
  return /^\*?[A-Za-z0-9._-]+$/.test(last) ? last : undefined;
}
