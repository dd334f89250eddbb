import type { RunOptions } from '../run-options.js';
import { runProcess } from '../run-process.js';

/**
 * Whose configuration git reads:
 * - `private`: a repository only bough writes (the checkpoint store). No system, global or user file takes part: the
 *   environment points HOME and the XDG directory at `home`, the global config at /dev/null, and no system
 *   attributes or ignore files are read, so the user's setup can neither run anything nor change a byte stored.
 * - `user`: the user's own repository (a worktree session). Its system and global config still apply, because
 *   commits made there must carry the user's identity, filters (git-lfs) and ignore rules; nothing a model writes in
 *   the workspace can change those files. Everything below that could run a program is off all the same.
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

// Given as `-c` on every command, so they win over every config file (the repository's own included): no hook, no
// filesystem monitor program, no pager. The repository's config could name any of them, and in a workspace a model
// writes, that would be a model choosing a program the host runs.
const HARDENING = ['core.hooksPath=/dev/null', 'core.fsmonitor=false', 'core.pager=cat'];

// The commands that show diffs run an external diff program or a text converter named in config (`diff.external`,
// `diff.<driver>.textconv`, chosen per file by a .gitattributes the workspace holds). Config cannot switch that off
// (an empty `diff.external` makes git try to run ""), so these commands get the flags that do.
const SHOWS_DIFFS = new Set(['diff', 'log', 'show', 'whatchanged']);
const NO_DIFF_PROGRAMS = ['--no-ext-diff', '--no-textconv'];

/** Git's argv: the hardening settings (and the caller's), the optional-locks rule, then the command. */
export function hardenedGitArgv(
  args: readonly string[],
  options: Pick<HardenedGitOptions, 'scope' | 'config' | 'optionalLocks'>,
): string[] {
  const settings = [...HARDENING, ...privateSettings(options.scope), ...(options.config ?? [])];
  const [command, ...rest] = args;
  const guarded = command !== undefined && SHOWS_DIFFS.has(command) ? [command, ...NO_DIFF_PROGRAMS, ...rest] : args;
  return [
    'git',
    ...(options.optionalLocks === true ? [] : ['--no-optional-locks']),
    ...settings.flatMap((setting) => ['-c', setting]),
    ...guarded,
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

/** Runs `git <args>` hardened (argv only, through {@link runProcess}: bounded, process group killed on timeout). */
export async function runHardenedGit(args: readonly string[], options: HardenedGitOptions): Promise<HardenedGitResult> {
  const chunks: Buffer[] = [];
  const result = await runProcess(hardenedGitArgv(args, options), {
    ...hardenedGitEnv(options),
    cwd: options.cwd,
    ...(options.workspaceRoot !== undefined ? { workspaceRoot: options.workspaceRoot } : {}),
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    maxOutputBytes: options.maxOutputBytes,
    ...(options.rawStdout === true
      ? { drainMs: 50, onStdout: (chunk: Buffer) => chunks.push(Buffer.from(chunk)) }
      : {}),
  });
  const raw = Buffer.concat(chunks);
  if (!result.success) {
    const message = `${result.error_code}: ${result.error}`;
    return { ok: false, code: null, finished: false, stdout: '', raw, stderr: '', message };
  }
  const code = result.return_code;
  const finished = !result.timed_out && !result.aborted;
  let message = '';
  if (result.timed_out) message = `git ${args[0]} did not finish within ${result.timeout_ms} ms`;
  else if (result.aborted) message = `git ${args[0]} was cancelled`;
  else if (code !== 0) message = result.stderr.trim() || `git ${args[0]} exited with ${code}`;
  return { ok: finished && code === 0, code, finished, stdout: result.stdout, raw, stderr: result.stderr, message };
}
