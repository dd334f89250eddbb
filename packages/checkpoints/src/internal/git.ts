import { dirname } from 'node:path';
import { type HardenedGitOptions, hardenedGitArgv, hardenedGitEnv, runHardenedGit } from '@bough/process/internal';

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

/**
 * The store's git, through the one hardened runner of `@bough/process` (no hooks, no program named by any config, an
 * environment built from scratch), as a private repository: no system, global or user config. On top of that the
 * store's own rules: its git dir and index, files stored byte for byte (no end-of-line conversion), literal
 * pathspecs and a fixed identity, so the user's repository, config and attributes never take part.
 */
function storeOptions(ctx: GitContext, noWorkTree: boolean, keepIndex = false) {
  return {
    scope: { kind: 'private', home: ctx.gitDir },
    cwd: dirname(ctx.gitDir),
    config: ['core.autocrlf=false'],
    // `git status` writes the refreshed index back (stat data, untracked cache): the index is the store's own. A step
    // whose refresh is not worth a rewrite of the whole index (see `keepIndex`) turns that off.
    optionalLocks: !keepIndex,
    env: {
      GIT_DIR: ctx.gitDir,
      ...(noWorkTree ? {} : { GIT_WORK_TREE: ctx.workTree }),
      GIT_INDEX_FILE: ctx.indexFile,
      GIT_LITERAL_PATHSPECS: '1',
      GIT_AUTHOR_NAME: 'bough',
      GIT_AUTHOR_EMAIL: 'checkpoints@bough.invalid',
      GIT_COMMITTER_NAME: 'bough',
      GIT_COMMITTER_EMAIL: 'checkpoints@bough.invalid',
    },
  } satisfies Partial<HardenedGitOptions>;
}

/** How one store step runs. */
export interface GitStepOptions {
  /** Without a work tree (`init`, reads of objects only). */
  readonly noWorkTree?: boolean;
  /**
   * Leave the index file as it is (git's `--no-optional-locks`): a `status` of a few paths that the next step stages
   * anyway would otherwise rewrite the whole index (about 1 MB for 10,000 files) only to refresh their stat data.
   */
  readonly keepIndex?: boolean;
}

/** Runs git against the store; stdout comes back whole and raw. */
export async function git(ctx: GitContext, args: readonly string[], options: GitStepOptions = {}): Promise<GitOutcome> {
  const result = await runHardenedGit(args, {
    ...storeOptions(ctx, options.noWorkTree === true, options.keepIndex === true),
    timeoutMs: ctx.timeoutMs,
    // The text capture is not used (stdout is taken raw), so it stays tiny; stderr carries git's message.
    maxOutputBytes: 8_192,
    rawStdout: true,
  });
  if (result.ok) return { ok: true, stdout: result.raw, code: 0 };
  const busy = result.finished && /\.lock'?:? File exists|Unable to create .*\.lock/u.test(result.message);
  return { ok: false, code: result.code, message: result.message, busy };
}

/** The argv and spawn options of a store step run as a long-lived process (the blob reader). */
export function storeProcess(ctx: GitContext, args: readonly string[]) {
  const options = storeOptions(ctx, true);
  return { argv: hardenedGitArgv(args, options), spawn: { cwd: options.cwd, ...hardenedGitEnv(options) } };
}

/** Splits NUL-terminated output into strings (the last empty piece dropped). */
export function nulList(stdout: Buffer): string[] {
  const text = stdout.toString('utf8');
  const parts = text.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}
