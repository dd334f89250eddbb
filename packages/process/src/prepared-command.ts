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
  /**
   * Set by the OS sandbox: everything the command starts lives in a PID namespace whose init is in the spawned
   * process group. The SIGKILL sent to the group ends the init, and the kernel kills the rest of the namespace
   * before the init itself goes, so waiting for the group also waits for processes that left it with `setsid`.
   */
  readonly confined?: boolean;
  /**
   * Set by the OS sandbox: descriptors at which the spawned child must get fresh pipes of the spawner's (replacing
   * whatever the spawner holds at those numbers); bubblewrap reports the init's pid on the first and closes them all
   * before the command runs. runProcess and startProcess provide them.
   */
  readonly pipes?: readonly number[];
}
