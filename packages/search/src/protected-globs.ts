import { DEFAULT_PROTECTED, type ProtectedNamePolicy } from '@bough/workspace';

function escapeGlob(name: string): string {
  return name.replace(/[\\[\]{}*?!]/g, '\\$&');
}

function globMatches(glob: string, name: string): boolean {
  const body = [...glob.toLowerCase()]
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 's').test(name.toLowerCase());
}

/**
 * Exclusion globs for protected names so ripgrep never opens those files. A pattern that would also hide an
 * allowed template (`.env.*` vs `.env.example`) is left to {@link isProtectedPath}, which filters every result.
 */
export function protectedGlobArgs(policy: ProtectedNamePolicy = DEFAULT_PROTECTED): string[] {
  const args = policy.names.map((name) => `--iglob=!${escapeGlob(name)}`);
  for (const pattern of policy.patterns) {
    if (policy.allow.some((allowed) => globMatches(pattern, allowed))) continue;
    args.push(`--iglob=!${pattern}`);
  }
  return args;
}
