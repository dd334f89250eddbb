import { realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { ConfigurationError } from '@bough/core';
import type { PermissionPolicy, PermissionRules } from '@bough/policy';
import { isCatchAll, rebaseGlob } from '@bough/policy/internal';

/**
 * A subagent's toolkit gets a preset (never more than its parent's) and works in its own `cwd`; the parent's deny
 * rules become deny rules of the child's own policy, spelled relative to that `cwd`, so the one policy of the child
 * decides everywhere: its permission check, its gates' link rule and what its whole-tree searches leave out.
 *
 * Each path pattern is rebased exactly (`rebaseGlob`): a rule that names the child's root or a directory above it
 * denies the child everything; a rule whose paths all lie outside the child's root leaves nothing inside it; no
 * rebased rule names the child's root (`.`) itself. A `cwd` reached through a link is rebased from both its given
 * and its real spelling, so a rule spelled either way still binds. For a tool matched on a describer's subject
 * (bash's command) the pattern is kept as written as well, since a command does not move with the directory (as a
 * path pattern that copy can only refuse more).
 *
 * @param parent the parent's policy (the child's inherits its parent's in turn, so every level up binds)
 * @param parentRoot the parent's workspace root now
 * @param childRoot the directory the child works in, inside `parentRoot`
 * @param described the tools whose rules are matched on a describer's subject (bash, subagent, sources with one)
 * @returns the rules to add to the child's deny rules; undefined when the parent has none
 * @throws ConfigurationError when `childRoot` is not inside `parentRoot` (the subagent is then not started)
 */
export function inheritedDeny(
  parent: PermissionPolicy | undefined,
  parentRoot: string,
  childRoot: string,
  described: readonly string[],
): PermissionRules | undefined {
  const deny = parent?.deny;
  if (!deny || Object.keys(deny).length === 0) return undefined;
  const dirs = below(parentRoot, childRoot);
  const out: Record<string, string[]> = {};
  const add = (tool: string, pattern: string) => {
    const list = out[tool] ?? [];
    if (!list.includes(pattern)) list.push(pattern);
    out[tool] = list;
  };
  for (const [tool, patterns] of Object.entries(deny)) {
    for (const pattern of patterns) {
      if (isCatchAll(pattern) || dirs.every((dir) => dir === '')) {
        add(tool, pattern);
        continue;
      }
      // From the same directory (a link to it) a rule stays as it is.
      const rebased = dirs.map((dir) =>
        dir === '' ? { patterns: [pattern], whole: false } : rebaseGlob(pattern, dir),
      );
      if (rebased.some((one) => one.whole)) add(tool, '*');
      else for (const inside of rebased.flatMap((one) => one.patterns)) add(tool, inside);
      const commands = tool === '*' ? described : described.includes(tool) ? [tool] : [];
      for (const name of commands) add(name, pattern);
    }
  }
  return out;
}

/** `policy` with `extra` deny rules added (named so a refusal says where the rule came from). */
export function withDenyRules(policy: PermissionPolicy, extra: PermissionRules | undefined): PermissionPolicy {
  if (!extra || Object.keys(extra).length === 0) return policy;
  const deny: Record<string, readonly string[]> = { ...(policy.deny ?? {}) };
  for (const [tool, patterns] of Object.entries(extra)) deny[tool] = [...(deny[tool] ?? []), ...patterns];
  const name = `${policy.name ?? 'custom'} with the parent's deny rules`;
  return Object.freeze({ ...policy, name, deny: Object.freeze(deny) });
}

/**
 * `childRoot` relative to `parentRoot` with forward slashes (`''` when they are the same directory): as both are
 * spelled, and between their real paths when that differs (a `cwd` through a link). The real one must lie inside.
 */
function below(parentRoot: string, childRoot: string): string[] {
  const real = (path: string) => {
    try {
      return realpathSync.native(path);
    } catch {
      return path;
    }
  };
  const inside = (dir: string) => !(dir === '..' || dir.startsWith(`..${sep}`) || isAbsolute(dir));
  const actual = relative(real(parentRoot), real(childRoot));
  if (!inside(actual)) throw new ConfigurationError("The subagent's directory is not inside its parent's workspace.");
  const given = relative(parentRoot, childRoot);
  const dirs = inside(given) && given !== actual ? [actual, given] : [actual];
  return dirs.map((dir) => dir.split(sep).join('/'));
}
