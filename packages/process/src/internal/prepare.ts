import { buildEnv } from '../build-env.js';
import { type ProcessFailure, processFailure } from '../failure.js';
import type { PreparedCommand } from '../prepared-command.js';
import type { RunOptions } from '../run-options.js';
import { resolveCwd } from './resolve-cwd.js';
import { resolveProgram } from './resolve-program.js';

/** The argv, cwd, environment and program rules shared by {@link runProcess} and {@link startProcess}. */
export async function prepareCommand(
  argv: readonly string[],
  options: Pick<RunOptions, 'cwd' | 'workspaceRoot' | 'linkRule' | 'env' | 'inheritEnv' | 'baseEnv' | 'signal'>,
): Promise<PreparedCommand | ProcessFailure> {
  const badArgv = checkArgv(argv);
  if (badArgv) return badArgv;
  if (options.signal?.aborted) {
    return processFailure('aborted', 'The call was cancelled before the program started; nothing was run.');
  }
  const env = buildEnv(options);
  const cwd = await resolveCwd(options.cwd, options.workspaceRoot, options.linkRule);
  if (typeof cwd !== 'string') return cwd;
  const name = argv[0] as string;
  const program = await resolveProgram(name, cwd, env.PATH);
  if (program === undefined) {
    const where = name.includes('/') ? 'at that path' : 'on PATH';
    return processFailure(
      'command_not_found',
      `No executable named ${JSON.stringify(name)} was found ${where}. Check the spelling, or use a program that is installed (commands run without a shell, so shell builtins and aliases are not available).`,
    );
  }
  return { program, argv, cwd, env };
}

function checkArgv(argv: unknown): ProcessFailure | undefined {
  if (!Array.isArray(argv) || argv.length === 0) {
    return processFailure('invalid_argv', 'argv must be a non-empty list: the program first, then its arguments.');
  }
  if (!argv.every((arg) => typeof arg === 'string')) {
    return processFailure('invalid_argv', 'Every argv element must be a string.');
  }
  if (argv[0] === '') return processFailure('invalid_argv', 'The program name (argv[0]) is empty.');
  if (argv.some((arg: string) => arg.includes('\0'))) {
    return processFailure('invalid_argv', 'An argument contains a NUL character, which cannot be passed to a program.');
  }
  return undefined;
}
