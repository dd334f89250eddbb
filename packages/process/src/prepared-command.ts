/** A command that passed every check (argv, cwd, program lookup, environment) and can be spawned as is. */
export interface PreparedCommand {
  /** Absolute path of the executable. */
  readonly program: string;
  /** The argv as the program will see it (argv[0] first). */
  readonly argv: readonly string[];
  /** The real, checked working directory. */
  readonly cwd: string;
  /** The filtered child environment. */
  readonly env: Record<string, string>;
}
