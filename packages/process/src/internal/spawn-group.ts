import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';

/** What every child is started from: the resolved program, its argv (argv[0] as shown), cwd and environment. */
export interface GroupSpawnSpec {
  readonly program: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** A descriptor for stderr instead of a pipe (the child then has no `stderr` stream). */
  readonly stderrFd?: number | undefined;
  /** A pipe for stdin (a language server reads its requests there); stdin is at EOF otherwise. */
  readonly stdinPipe?: boolean | undefined;
  /** Further descriptors that get fresh pipes (the OS sandbox's: `PreparedCommand.pipes`). */
  readonly pipes?: readonly number[] | undefined;
}

/**
 * Starts a child the one way this package does: argv only, no shell, stdin at EOF unless a pipe is asked for, piped output (or stderr to a given descriptor), and its own
 * process group so the whole group can be signalled. Throws as `spawn` does.
 */
export function spawnGroup(spec: GroupSpawnSpec): ChildProcess {
  return spawn(spec.program, spec.argv.slice(1), {
    argv0: spec.argv[0],
    cwd: spec.cwd,
    env: spec.env,
    stdio: stdioFor(spec),
    detached: true,
    shell: false,
    windowsHide: true,
  });
}

function stdioFor(spec: GroupSpawnSpec): StdioOptions {
  const stdio: (number | 'pipe' | 'ignore')[] = [spec.stdinPipe ? 'pipe' : 'ignore', 'pipe', spec.stderrFd ?? 'pipe'];
  // 'ignore' above stderr leaves a descriptor as it is; each listed one is replaced by a pipe.
  for (const fd of spec.pipes ?? []) {
    while (stdio.length <= fd) stdio.push('ignore');
    stdio[fd] = 'pipe';
  }
  return stdio;
}
