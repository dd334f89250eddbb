import { runHardenedGit } from '@bough/process/internal';

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
 * Runs `git <args>` in `cwd` through the one hardened runner of `@bough/process`: argv only, no hooks (a model that
 * can write files must not get code run by `worktree add`, `commit` or `merge`), no filesystem monitor, pager or
 * external diff program from any config, an environment built from scratch, and no optional locks on the user's
 * index. It is the user's own repository, so their system and global config (identity, filters, ignores) still
 * apply; a program named by the repository's own config (which a model could write) is not run. Never throws.
 */
export async function git(args: readonly string[], cwd: string, options: GitOptions): Promise<GitResult> {
  const result = await runHardenedGit(args, {
    scope: { kind: 'user' },
    cwd,
    workspaceRoot: options.root,
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    maxOutputBytes: options.maxOutputBytes,
    config: options.config ?? [],
  });
  // A run git did not finish (not started, timed out, cancelled) says why after whatever git printed.
  const stderr = result.finished ? result.stderr : `${result.stderr}\n${result.message}`.trim();
  return { ok: result.ok, code: result.code, stdout: result.stdout, stderr };
}

/** First line of a git error, for messages a model reads. */
export function gitError(result: GitResult): string {
  const text = (result.stderr || result.stdout).trim();
  return text === '' ? `git exited with code ${result.code}` : text.split('\n').slice(0, 6).join('\n');
}
