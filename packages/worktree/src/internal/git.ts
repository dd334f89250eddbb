import { runProcess } from '@bough/process';

/** The outcome of one git command. */
export interface GitResult {
  readonly ok: boolean;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How the git commands of one worktree session run. */
export interface GitOptions {
  /** Directory git must stay inside (the repository root). */
  readonly root: string;
  readonly timeoutMs: number;
  /** Bytes kept per output stream (the `gitOutputBytes` limit). */
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
  /** `-c key=value` settings put before the subcommand (identity for commits and merges). */
  readonly config?: readonly string[];
}

/**
 * Settings for every git command of a session: no hooks (a model that can write files must not get code run by
 * `worktree add`, `commit` or `merge`) and no filesystem monitor program from the repository's config.
 */
const SAFETY_CONFIG = ['core.hooksPath=/dev/null', 'core.fsmonitor=false'];

/** Runs `git <args>` in `cwd` with argv only (no shell), through @bough/process; never throws. */
export async function git(args: readonly string[], cwd: string, options: GitOptions): Promise<GitResult> {
  const config = [...SAFETY_CONFIG, ...(options.config ?? [])];
  const argv = ['git', '--no-optional-locks', ...config.flatMap((c) => ['-c', c]), ...args];
  const outcome = await runProcess(argv, {
    cwd,
    workspaceRoot: options.root,
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    maxOutputBytes: options.maxOutputBytes,
  });
  if (!outcome.success) return { ok: false, code: null, stdout: '', stderr: outcome.error };
  const stderr = outcome.timed_out
    ? `${outcome.stderr}\n(git timed out after ${outcome.timeout_ms} ms)`.trim()
    : outcome.stderr;
  return {
    ok: outcome.return_code === 0 && !outcome.timed_out,
    code: outcome.return_code,
    stdout: outcome.stdout,
    stderr,
  };
}

/** First line of a git error, for messages a model reads. */
export function gitError(result: GitResult): string {
  const text = (result.stderr || result.stdout).trim();
  return text === '' ? `git exited with code ${result.code}` : text.split('\n').slice(0, 6).join('\n');
}
