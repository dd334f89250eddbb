import type { LinkRule } from '@bough/workspace';
import type { ProcessFailure } from './failure.js';
import type { PreparedCommand } from './prepared-command.js';
/** How to run one command; every limit falls back to `DEFAULT_PROCESS_LIMITS`. */
export interface RunOptions {
  /** Working directory, absolute or relative to `workspaceRoot`; must resolve inside it when a root is given. */
  cwd?: string;
  /** When set, `cwd` (after symlinks) must be inside this directory, and is the default cwd. */
  workspaceRoot?: string;
  /**
   * With `workspaceRoot`: where a symbolic link on the way to `cwd` may lead (the workspace gate's `linkRule`), so a
   * permission policy's path rules bind the real directory the command runs in; a refusal has the code `denied`.
   */
  linkRule?: LinkRule;
  /** Extra variables set as given (the caller's explicit choice: not secret-filtered). */
  env?: Record<string, string>;
  /** Names or `PREFIX*` patterns taken from `baseEnv`; defaults to `DEFAULT_ENV_ALLOWLIST`. */
  inheritEnv?: readonly string[];
  /** Source of inherited variables; defaults to `process.env`. */
  baseEnv?: Record<string, string | undefined>;
  /** Milliseconds before the process group is stopped; zero, negative or invalid means the default. */
  timeoutMs?: number;
  /** Aborting stops the process group like a timeout and returns what was captured with `aborted: true`. */
  signal?: AbortSignal;
  /** Bytes kept per stream (half head, half tail). */
  maxOutputBytes?: number;
  /** How long to wait for the pipes after the direct child exits. */
  drainMs?: number;
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** After the final SIGKILL, how long to wait for the group's processes to disappear before returning. */
  reapWaitMs?: number;
  /**
   * Sees every raw stdout chunk as it arrives (for example to abort once enough was read). The chunk is shared with
   * the capture, so read it or copy it, never modify it.
   */
  onStdout?: (chunk: Buffer) => void;
  /** Sees every raw stderr chunk as it arrives; like `onStdout`, it must not modify the chunk. */
  onStderr?: (chunk: Buffer) => void;
  /**
   * An open file descriptor (a regular file) that receives the child's stderr instead of a pipe: for a command that
   * logs a lot to stderr, writes to a file cost neither side a wake-up per write. The caller reads the file after
   * the call; the result's `stderr` is then empty and `onStderr` is never called. The descriptor stays the caller's.
   */
  stderrFd?: number;
  /**
   * Turns the checked command into the one actually spawned (the OS sandbox's `wrap` puts it inside bwrap), or
   * refuses it with a failure.
   */
  wrap?: (command: PreparedCommand) => PreparedCommand | ProcessFailure;
}
