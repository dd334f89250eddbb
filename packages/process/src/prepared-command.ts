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
   * process group, so the SIGKILL sent to the group on exit ends all of it (the kernel kills a namespace with its
   * init), and the run need not scan for group members that outlived the command.
   */
  readonly confined?: boolean;
}
