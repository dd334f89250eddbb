import { DEFAULT_PROTECTED, type ProtectedNamePolicy } from '@bough/workspace';
import { globToRegExp } from '@bough/workspace/internal';

function escapeGlob(name: string): string {
  return name.replace(/[\\[\]{}*?!,]/g, '\\$&');
}

/** Whether a protected pattern would also match an allowed name: the workspace's one glob rule, case-insensitive. */
function globMatches(glob: string, name: string): boolean {
  return globToRegExp(glob.toLowerCase()).test(name.toLowerCase());
}

/**
 * Exclusion globs for protected names so ripgrep never opens those files. A pattern that would also hide an
 * allowed template (`.env.*` vs `.env.example`) is left to {@link isProtectedPath}, which filters every result.
 * The names and patterns go into one glob of alternatives (`!{.env,*.pem,…}`): ripgrep matches every walk entry
 * against every override glob, and one glob costs it less per entry than fourteen. A policy pattern that has braces
 * or commas of its own cannot be an alternative and gets a glob to itself.
 */
export function protectedGlobArgs(policy: ProtectedNamePolicy = DEFAULT_PROTECTED): string[] {
  const together = policy.names.map(escapeGlob);
  const alone: string[] = [];
  for (const pattern of policy.patterns) {
    if (policy.allow.some((allowed) => globMatches(pattern, allowed))) continue;
    if (/[{},]/.test(pattern)) alone.push(pattern);
    else together.push(pattern);
  }
  const args = together.length > 1 ? [`--iglob=!{${together.join(',')}}`] : together.map((glob) => `--iglob=!${glob}`);
  return [...args, ...alone.map((glob) => `--iglob=!${glob}`)];
}
