// Which settings of a repository's own config (`.git/config`, `config.worktree` and every file they include) name a
// program git would run, and what each is set back to for one command. Git cannot be told to skip the local file
// while still reading the user's global one, and a fixed `-c` list cannot name the drivers a repository invents
// (`filter.<any name>.clean`), so the names are read from git's own listing of the config before each command.
// Our own parser over git's listing (no library reads git config with git's scopes and includes).

/** One `key=value` override for a command, given through GIT_CONFIG_COUNT (no `=` parsing ambiguity in names). */
export interface ConfigOverride {
  readonly key: string;
  readonly value: string;
}

interface Entry {
  readonly scope: string;
  readonly key: string;
  readonly value: string;
}

// Keys (lowercased, subsection removed) whose value git runs as a program, and the value that runs nothing. An empty
// filter or textconv command is skipped or fails with "cannot run" before anything starts; an empty merge driver or
// diff command makes git fail the same way; `pager.<cmd>=false` turns that command's pager off; `never` refuses a
// transport.
const PROGRAM_KEYS: ReadonlyMap<string, string> = new Map([
  ['filter.*.clean', ''],
  ['filter.*.smudge', ''],
  ['filter.*.process', ''],
  ['merge.*.driver', ''],
  ['diff.*.command', ''],
  ['diff.*.textconv', ''],
  ['diff.external', ''],
  ['gpg.program', ''],
  ['gpg.*.program', ''],
  ['core.sshcommand', ''],
  ['core.gitproxy', ''],
  ['core.alternaterefscommand', ''],
  ['credential.*.helper', ''],
  ['interactive.difffilter', ''],
  ['pager.*', 'false'],
  // A per-protocol rule wins over the fixed `protocol.allow=never` (`ext::` runs any command it is given).
  ['protocol.*.allow', 'never'],
  ['remote.*.vcs', ''],
  ['remote.*.uploadpack', ''],
  ['remote.*.receivepack', ''],
]);

// The repository's own scopes: a model writing in the workspace can write these files (or a file they include).
const LOCAL_SCOPES = new Set(['local', 'worktree']);

/** Splits `git config --list --show-scope -z` output into entries (`scope NUL key LF value NUL`). */
export function parseConfigListing(text: string): Entry[] {
  const fields = text.split('\0');
  const entries: Entry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i] ?? '';
    const pair = fields[i + 1] ?? '';
    const cut = pair.indexOf('\n');
    entries.push(
      cut < 0 ? { scope, key: pair, value: '' } : { scope, key: pair.slice(0, cut), value: pair.slice(cut + 1) },
    );
  }
  return entries;
}

/** The key's shape for {@link PROGRAM_KEYS}: `section.*.name` when it has a subsection, lowercased outside it. */
function shapeOf(key: string): { shape: string; section: string; subsection: string | null; name: string } {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  const section = key.slice(0, first).toLowerCase();
  const name = key.slice(last + 1).toLowerCase();
  if (first === last) return { shape: `${section}.${name}`, section, subsection: null, name };
  return { shape: `${section}.*.${name}`, section, subsection: key.slice(first + 1, last), name };
}

/** The key as git compares it: section and name without case, the subsection exactly. */
function normalKey(key: string): string {
  const { section, subsection, name } = shapeOf(key);
  return subsection === null ? `${section}.${name}` : `${section}.${subsection}.${name}`;
}

function programNeutral(key: string): string | undefined {
  const { shape, section, subsection } = shapeOf(key);
  if (section === 'pager' && subsection === null) return PROGRAM_KEYS.get('pager.*');
  return PROGRAM_KEYS.get(shape);
}

/**
 * The overrides that take every program-naming key of the repository's own config back to what the user's system
 * and global config say (a git-lfs filter installed globally keeps working) or, when they say nothing, to a value
 * that runs nothing. A filter whose command is taken away is also made optional, so files still add and check out.
 * `fixed` keys (lowercased) are already set for every command and are left alone.
 */
export function localProgramOverrides(listing: string, fixed: ReadonlySet<string>): ConfigOverride[] {
  const entries = parseConfigListing(listing);
  const userValue = (key: string): string | undefined => {
    const wanted = normalKey(key);
    let found: string | undefined;
    for (const entry of entries) {
      if (!LOCAL_SCOPES.has(entry.scope) && entry.scope !== 'command' && normalKey(entry.key) === wanted) {
        found = entry.value;
      }
    }
    return found;
  };
  const overrides = new Map<string, ConfigOverride>();
  const set = (key: string, neutral: string) => {
    const normal = normalKey(key);
    if (fixed.has(normal)) return;
    overrides.set(normal, { key, value: userValue(key) ?? neutral });
  };
  for (const entry of entries) {
    if (!LOCAL_SCOPES.has(entry.scope)) continue;
    const neutral = programNeutral(entry.key);
    if (neutral === undefined) continue;
    set(entry.key, neutral);
    const { section, subsection } = shapeOf(entry.key);
    if (section === 'filter' && subsection !== null) set(`filter.${subsection}.required`, 'false');
  }
  return [...overrides.values()];
}

/** The environment that hands `overrides` to git (and to the git processes it starts) as command-line config. */
export function overrideEnv(overrides: readonly ConfigOverride[]): Record<string, string> {
  if (overrides.length === 0) return {};
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(overrides.length) };
  overrides.forEach((override, i) => {
    env[`GIT_CONFIG_KEY_${i}`] = override.key;
    env[`GIT_CONFIG_VALUE_${i}`] = override.value;
  });
  return env;
}
