import type { RunOptions } from '../run-options.js';
import { runProcess } from '../run-process.js';
import { type ListConfig, localProgramOverrides, overrideEnv, readConfigEntries } from './git-local-config.js';

/**
 * Whose configuration git reads:
 * - `private`: a repository only bough writes (the checkpoint store). No system, global or user file takes part: the
 *   environment points HOME and the XDG directory at `home`, the global config at /dev/null, and no system
 *   attributes or ignore files are read, so the user's setup can neither run anything nor change a byte stored.
 * - `user`: the user's own repository (a worktree session). Its system and global config still apply, because
 *   commits made there must carry the user's identity, filters (git-lfs) and ignore rules; nothing a model writes in
 *   the workspace can change those files. Programs they name still run (a git-lfs filter); every program the
 *   repository's own config names (its `.git/config`, `config.worktree` and whatever those include, conditionally
 *   or not) is taken back to the user's value or to none before each command (see git-local-config.ts).
 * In both, the fixed settings below keep hooks, signing, editors, credentials and transports off.
 */
export type GitConfigScope = { readonly kind: 'private'; readonly home: string } | { readonly kind: 'user' };

/** How one git command runs. */
export interface HardenedGitOptions {
  readonly scope: GitConfigScope;
  readonly cwd: string;
  /** When set, `cwd` must resolve inside it (see `RunOptions.workspaceRoot`). */
  readonly workspaceRoot?: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Bytes of stdout and stderr kept as text (the raw stdout, when asked for, is never cut). */
  readonly maxOutputBytes: number;
  /** Keep every stdout byte as a Buffer (`raw`): file contents and NUL-separated lists stay exact. */
  readonly rawStdout?: boolean;
  /** Further `-c key=value` settings, after the hardening ones (an identity, a repository's own rules). */
  readonly config?: readonly string[];
  /** Further variables (GIT_DIR, GIT_INDEX_FILE, an identity). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Let `status` and `diff` refresh and write back the index (git's optional locks). Off by default, so reading the
   * user's repository never takes its index lock while the user's own git works there; a private repository whose
   * index only bough uses turns it on to keep the refreshed stat data.
   */
  readonly optionalLocks?: boolean;
}

/** The outcome of one git command; never thrown. */
export interface HardenedGitResult {
  /** Exit code 0, neither timed out nor cancelled. */
  readonly ok: boolean;
  readonly code: number | null;
  /** Whether git ran to its own exit (false: it could not start, timed out or was cancelled). */
  readonly finished: boolean;
  /** Stdout as text (cut at `maxOutputBytes`). */
  readonly stdout: string;
  /** Every stdout byte, when `rawStdout` was asked for (else empty). */
  readonly raw: Buffer;
  readonly stderr: string;
  /** What went wrong, in a line (git's message, a timeout, a cancellation); empty when `ok`. */
  readonly message: string;
}

// Given as `-c` on every command, so they win over every config file (the repository's own included): no hook,
// filesystem monitor, pager or editor; nothing signed or verified (no gpg program); no credential helper or password
// prompt program; no transport at all (`protocol.allow=never`: no ssh command, proxy, remote helper or lazy fetch
// of a partial clone); no submodule work. The repository's config could name any of those programs, and in a
// workspace a model writes, that would be a model choosing a program the host runs. An empty `credential.helper`
// empties the helper list; an empty `core.askPass` means none; `:` is the editor git never starts.
const HARDENING = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.editor=:',
  'sequence.editor=:',
  'core.askPass=',
  'credential.helper=',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'tag.forceSignAnnotated=false',
  'log.showSignature=false',
  'merge.verifySignatures=false',
  'protocol.allow=never',
  'submodule.recurse=false',
];
const FIXED_KEYS: ReadonlySet<string> = new Set(
  HARDENING.map((setting) => setting.slice(0, setting.indexOf('=')).toLowerCase()),
);

// The commands that show diffs run an external diff program or a text converter named in config (`diff.external`,
// `diff.<driver>.command`/`.textconv`, chosen per file by a .gitattributes the workspace holds). An empty value only
// makes git fail with "cannot run", so these commands also get the flags that keep git's own diff, right after the
// subcommand (after `stash show`). blame and annotate only convert text.
const SHOWS_DIFFS = new Set([
  'diff',
  'diff-files',
  'diff-index',
  'diff-tree',
  'log',
  'show',
  'whatchanged',
  'format-patch',
  'range-diff',
]);
const NO_DIFF_PROGRAMS = ['--no-ext-diff', '--no-textconv'];

function guardDiffs(args: readonly string[]): string[] {
  const [command, sub] = args;
  const at = (index: number, flags: readonly string[]) => [...args.slice(0, index), ...flags, ...args.slice(index)];
  if (command === undefined) return [];
  if (SHOWS_DIFFS.has(command)) return at(1, NO_DIFF_PROGRAMS);
  if (command === 'stash' && sub === 'show') return at(2, NO_DIFF_PROGRAMS);
  if (command === 'blame' || command === 'annotate') return at(1, ['--no-textconv']);
  return [...args];
}

/** Git's argv: the hardening settings (and the caller's), the optional-locks rule, then the command. */
export function hardenedGitArgv(
  args: readonly string[],
  options: Pick<HardenedGitOptions, 'scope' | 'config' | 'optionalLocks'>,
): string[] {
  const settings = [...HARDENING, ...privateSettings(options.scope), ...(options.config ?? [])];
  return [
    'git',
    ...(options.optionalLocks === true ? [] : ['--no-optional-locks']),
    ...settings.flatMap((setting) => ['-c', setting]),
    ...guardDiffs(args),
  ];
}

function privateSettings(scope: GitConfigScope): string[] {
  return scope.kind === 'private' ? ['core.excludesFile=/dev/null', 'core.attributesFile=/dev/null'] : [];
}

/**
 * Where git's environment comes from: built from scratch with a short list of inherited names (no GIT_* variable of
 * the host process reaches git: GIT_DIR, GIT_CONFIG_PARAMETERS, GIT_EXTERNAL_DIFF…), C messages, and for a private
 * repository no system or global config at all.
 */
export function hardenedGitEnv(
  options: Pick<HardenedGitOptions, 'scope' | 'env'>,
): Required<Pick<RunOptions, 'inheritEnv' | 'env'>> {
  const common = { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' };
  if (options.scope.kind === 'user') {
    // HOME for the user's global config; TZ so commits carry the user's time zone, as their own git would.
    return { inheritEnv: ['PATH', 'TMPDIR', 'HOME', 'TZ'], env: { ...common, ...options.env } };
  }
  const home = options.scope.home;
  return {
    inheritEnv: ['PATH', 'TMPDIR'],
    env: {
      ...common,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_ATTR_NOSYSTEM: '1',
      HOME: home,
      XDG_CONFIG_HOME: home,
      ...options.env,
    },
  };
}

/**
 * Runs `git <args>` hardened (argv only, through {@link runProcess}: bounded, process group killed on timeout). In the
 * user's repository, git first lists the config, and every program the repository's own config names (see
 * git-local-config.ts) is taken back to the user's value, or to none, for this one command.
 */
export async function runHardenedGit(args: readonly string[], options: HardenedGitOptions): Promise<HardenedGitResult> {
  let extraEnv: Record<string, string> = {};
  if (options.scope.kind === 'user') {
    const list: ListConfig = async (gitArgs) => {
      const listed = await spawnGit(['git', '--no-optional-locks', ...gitArgs], options, {}, true);
      return listed.ok ? { ok: true, text: listed.raw.toString('utf8') } : { ok: false, message: listed.message };
    };
    const entries = await readConfigEntries(list, options.cwd, process.env.HOME);
    if (typeof entries === 'string') {
      const message = `could not read the repository's config: ${entries}`;
      return { ok: false, code: null, finished: false, stdout: '', raw: Buffer.alloc(0), stderr: '', message };
    }
    extraEnv = overrideEnv(localProgramOverrides(entries, FIXED_KEYS));
  }
  return spawnGit(hardenedGitArgv(args, options), options, extraEnv, options.rawStdout === true);
}

async function spawnGit(
  argv: readonly string[],
  options: HardenedGitOptions,
  extraEnv: Readonly<Record<string, string>>,
  rawStdout: boolean,
): Promise<HardenedGitResult> {
  const chunks: Buffer[] = [];
  const { inheritEnv, env } = hardenedGitEnv(options);
  const command = argv.find((arg, i) => i > 0 && !arg.startsWith('-') && argv[i - 1] !== '-c') ?? 'git';
  const result = await runProcess(argv, {
    inheritEnv,
    env: { ...env, ...extraEnv },
    cwd: options.cwd,
    ...(options.workspaceRoot !== undefined ? { workspaceRoot: options.workspaceRoot } : {}),
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    maxOutputBytes: options.maxOutputBytes,
    ...(rawStdout ? { drainMs: 50, onStdout: (chunk: Buffer) => chunks.push(Buffer.from(chunk)) } : {}),
  });
  const raw = Buffer.concat(chunks);
  if (!result.success) {
    const message = `${result.error_code}: ${result.error}`;
    return { ok: false, code: null, finished: false, stdout: '', raw, stderr: '', message };
  }
  const code = result.return_code;
  const finished = !result.timed_out && !result.aborted;
  let message = '';
  if (result.timed_out) message = `git ${command} did not finish within ${result.timeout_ms} ms`;
  else if (result.aborted) message = `git ${command} was cancelled`;
  else if (code !== 0) message = result.stderr.trim() || `git ${command} exited with ${code}`;
  return { ok: finished && code === 0, code, finished, stdout: result.stdout, raw, stderr: result.stderr, message };
}
