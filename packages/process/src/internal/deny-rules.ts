import { isAbsolute } from 'node:path';
import { ConfigurationError } from '@bough/core';
import picomatch from 'picomatch';

/** Tests a workspace-relative path (with `/` separators) against the deny-read and deny-write patterns. */
export interface DenyMatchers {
  read(relativePath: string): boolean;
  write(relativePath: string): boolean;
  /** True when there is at least one pattern (a partial scan then cannot promise to enforce them). */
  readonly any: boolean;
}

/** No patterns: nothing matches. */
export const NO_DENY: DenyMatchers = Object.freeze({ read: () => false, write: () => false, any: false });

/**
 * Checks and compiles the deny patterns. The sandbox enforces a pattern by finding its matches with the bounded scan
 * at command start and turning each into a mount, so only patterns whose matches lie inside the workspace and can be
 * listed are accepted: relative globs (picomatch syntax, dotfiles included) without `..`, without a leading `!`
 * (an exception cannot be expressed as a mount) and not empty. Anything else throws a `ConfigurationError` naming
 * the pattern: a rule is never dropped.
 */
export function compileDenyRules(denyRead: readonly string[] = [], denyWrite: readonly string[] = []): DenyMatchers {
  for (const [option, patterns] of [
    ['denyRead', denyRead],
    ['denyWrite', denyWrite],
  ] as const) {
    if (!Array.isArray(patterns)) throw new ConfigurationError(`The sandbox option ${option} must be a list of globs.`);
    for (const pattern of patterns) {
      const why = unenforceable(pattern);
      if (why) {
        throw new ConfigurationError(
          `The sandbox cannot enforce the ${option} pattern ${JSON.stringify(pattern)}: ${why}. ` +
            'Use a glob relative to the workspace root, such as "secrets/**" or "*.pem".',
        );
      }
    }
  }
  if (denyRead.length === 0 && denyWrite.length === 0) return NO_DENY;
  const matcher = (patterns: readonly string[]) =>
    patterns.length === 0 ? () => false : picomatch([...patterns], { dot: true });
  const read = matcher(denyRead);
  const write = matcher(denyWrite);
  return { read: (path) => read(toPosix(path)), write: (path) => write(toPosix(path)), any: true };
}

function unenforceable(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string' || pattern.trim() === '') return 'it is empty or not a string';
  if (pattern.includes('\0')) return 'it contains a NUL character';
  if (isAbsolute(pattern) || pattern.startsWith('~')) return 'it is not relative to the workspace root';
  if (pattern.split('/').includes('..')) return 'it climbs out of the workspace with ".."';
  if (pattern.startsWith('!')) return 'a negated pattern (an exception) cannot be expressed as a mount';
  return undefined;
}

function toPosix(path: string): string {
  return path.split('\\').join('/');
}
