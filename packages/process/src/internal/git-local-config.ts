// Which settings of a repository's own config (`.git/config`, `config.worktree` and every file they include) name a
// program git would run, and what each is set back to for one command. Git cannot be told to skip the local file
// while still reading the user's global one, and a fixed `-c` list cannot name the drivers a repository invents
// (`filter.<any name>.clean`), so the names are read from git's own listing of the config before each command.
// Our own parser over git's listing (no library reads git config with git's scopes and includes).

import { dirname, isAbsolute, join, resolve } from 'node:path';

/** One `key=value` override for a command, given through GIT_CONFIG_COUNT (no `=` parsing ambiguity in names). */
export interface ConfigOverride {
  readonly key: string;
  readonly value: string;
}

export interface Entry {
  readonly scope: string;
  readonly origin: string;
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
  ['tar.*.command', ''],
  ['difftool.*.cmd', ''],
  ['mergetool.*.cmd', ''],
  ['remote.*.uploadpack', ''],
  ['remote.*.receivepack', ''],
]);

// The repository's own scopes: a model writing in the workspace can write these files (or a file they include).
const LOCAL_SCOPES = new Set(['local', 'worktree']);

/** Splits `git config --list --show-scope --show-origin -z` output (`scope NUL origin NUL key LF value NUL`). */
export function parseConfigListing(text: string): Entry[] {
  const fields = text.split('\0');
  const entries: Entry[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [scope = '', origin = '', pair = ''] = fields.slice(i, i + 3);
    const cut = pair.indexOf('\n');
    const key = cut < 0 ? pair : pair.slice(0, cut);
    entries.push({ scope, origin, key, value: cut < 0 ? '' : pair.slice(cut + 1) });
  }
  return entries;
}

/** How the listing is read: git's stdout for these arguments (`config …`, `rev-parse …`), or why it could not run. */
export type ListConfig = (
  args: readonly string[],
) => Promise<{ ok: true; text: string } | { ok: false; message: string }>;

const LISTING = ['--list', '--show-scope', '--show-origin', '-z'];
const MAX_INCLUDED_FILES = 20;

/**
 * Every entry git reads for the repository, plus every entry of every file the repository's own config includes,
 * whether or not its condition holds now: `includeIf "onbranch:…"` or `"gitdir:…"` can hold in the processes a
 * command starts (the new worktree of `worktree add`) while not in the listing made before it, so those files count
 * as the repository's own (scope `local`). Returns git's message when a listing fails.
 */
export async function readConfigEntries(
  list: ListConfig,
  cwd: string,
  home: string | undefined,
): Promise<Entry[] | string> {
  const first = await list(['config', ...LISTING]);
  if (!first.ok) return first.message;
  const entries = parseConfigListing(first.text);
  const seen = new Set<string>();
  // A relative origin is relative to where git works from: the top of the work tree (else the directory given).
  let top: string | undefined;
  const base = async () => {
    if (top !== undefined) return top;
    const found = await list(['rev-parse', '--show-toplevel']);
    top = found.ok && found.text.trim() !== '' ? found.text.trim() : cwd;
    return top;
  };
  const pending = entries.filter(isLocalInclude);
  while (pending.length > 0 && seen.size < MAX_INCLUDED_FILES) {
    const include = pending.shift() as Entry;
    const file = includedFile(include, include.origin.startsWith('file:/') ? '/' : await base(), home);
    if (file === undefined || seen.has(file)) continue;
    seen.add(file);
    const read = await list(['config', '--file', file, '--no-includes', ...LISTING]);
    if (!read.ok) continue; // a missing or unreadable include is skipped by git as well
    const found = parseConfigListing(read.text).map((entry) => ({ ...entry, scope: 'local' }));
    entries.push(...found);
    pending.push(...found.filter(isLocalInclude));
  }
  return entries;
}

function isLocalInclude(entry: Entry): boolean {
  const key = entry.key.toLowerCase();
  return (
    LOCAL_SCOPES.has(entry.scope) && (key === 'include.path' || (key.startsWith('includeif.') && key.endsWith('.path')))
  );
}

// An include path as git resolves it: `~/` from HOME, a relative one from the directory of the file naming it.
function includedFile(include: Entry, from: string, home: string | undefined): string | undefined {
  const value = include.value;
  if (value === '') return undefined;
  if (value.startsWith('~/')) return home === undefined ? undefined : join(home, value.slice(2));
  if (isAbsolute(value)) return value;
  if (!include.origin.startsWith('file:')) return undefined;
  return resolve(from, dirname(include.origin.slice('file:'.length)), value);
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
export function localProgramOverrides(entries: readonly Entry[], fixed: ReadonlySet<string>): ConfigOverride[] {
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
