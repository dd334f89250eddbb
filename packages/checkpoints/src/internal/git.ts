import { dirname } from 'node:path';
import { runProcess } from '@bough/process';

/** Where one store's git state lives and how long a step may take. */
export interface GitContext {
  /** The store's git directory (objects, refs, config), outside the workspace. */
  readonly gitDir: string;
  /** The store's own index file, never the user's. */
  readonly indexFile: string;
  /** Real path of the workspace: git's work tree for reading files only (the store never checks anything out). */
  readonly workTree: string;
  readonly timeoutMs: number;
}

/** The outcome of one git step: raw stdout (file bytes stay bytes), or why it failed. */
export type GitOutcome =
  | { readonly ok: true; readonly stdout: Buffer; readonly code: number }
  | { readonly ok: false; readonly code: number | null; readonly message: string; readonly busy: boolean };

// Settings given on every call as well as in the store's config, so nothing the workspace or the user's environment
// holds can run a program or change bytes: no hooks, no fsmonitor daemon, no pager, no external diff or text filter.
const HARDENING = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.excludesFile=/dev/null',
  '-c',
  'core.attributesFile=/dev/null',
  '-c',
  'core.autocrlf=false',
  '-c',
  'core.pager=cat',
  '-c',
  'diff.external=',
];

/**
 * Runs git against the store through `@bough/process` (argv only, bounded, process group killed on timeout) with an
 * environment built from scratch: the store's git dir and index, no system or global config, literal pathspecs and a
 * fixed identity, so the user's repository, config, hooks and attributes never take part.
 */
export async function git(
  ctx: GitContext,
  args: readonly string[],
  options: { readonly noWorkTree?: boolean } = {},
): Promise<GitOutcome> {
  const chunks: Buffer[] = [];
  const result = await runProcess(hardenedArgv(args), {
    ...gitSpawnOptions(ctx, options.noWorkTree === true),
    timeoutMs: ctx.timeoutMs,
    // The text capture is not used (stdout is taken raw below), so it stays tiny; stderr carries git's message.
    maxOutputBytes: 8_192,
    drainMs: 50,
    onStdout: (chunk) => chunks.push(Buffer.from(chunk)),
  });
  if (!result.success) return { ok: false, code: null, message: `${result.error_code}: ${result.error}`, busy: false };
  if (result.timed_out || result.aborted) {
    const why = result.timed_out ? `did not finish within ${result.timeout_ms} ms` : 'was cancelled';
    return { ok: false, code: null, message: `git ${args[0]} ${why}`, busy: false };
  }
  const code = result.return_code ?? -1;
  if (code !== 0) {
    const message = result.stderr.trim() || `git ${args[0]} exited with ${code}`;
    return { ok: false, code, message, busy: /\.lock'?:? File exists|Unable to create .*\.lock/u.test(message) };
  }
  return { ok: true, stdout: Buffer.concat(chunks), code };
}

/** Where git runs and the environment it gets: built from scratch, so nothing of the user's takes part. */
export function gitSpawnOptions(ctx: GitContext, noWorkTree: boolean) {
  return {
    cwd: dirname(ctx.gitDir),
    inheritEnv: ['PATH', 'TMPDIR'],
    env: {
      GIT_DIR: ctx.gitDir,
      ...(noWorkTree ? {} : { GIT_WORK_TREE: ctx.workTree }),
      GIT_INDEX_FILE: ctx.indexFile,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_ATTR_NOSYSTEM: '1',
      GIT_LITERAL_PATHSPECS: '1',
      GIT_AUTHOR_NAME: 'bough',
      GIT_AUTHOR_EMAIL: 'checkpoints@bough.invalid',
      GIT_COMMITTER_NAME: 'bough',
      GIT_COMMITTER_EMAIL: 'checkpoints@bough.invalid',
      HOME: ctx.gitDir,
      XDG_CONFIG_HOME: ctx.gitDir,
      LC_ALL: 'C',
    },
  };
}

/** Git's arguments with the hardening settings first. */
export function hardenedArgv(args: readonly string[]): string[] {
  return ['git', ...HARDENING, ...args];
}

/** Splits NUL-terminated output into strings (the last empty piece dropped). */
export function nulList(stdout: Buffer): string[] {
  const text = stdout.toString('utf8');
  const parts = text.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}
