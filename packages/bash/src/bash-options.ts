import type { ToolProgress } from '@bough/core';
import type { CheckedSandbox, RunOptions, SandboxMode, SandboxSettings } from '@bough/process';
import type { JobStore } from './job-store.js';
import type { BashLimits } from './limits.js';

/** How a bash tool is configured: where it may run and which environment its commands see. */
export interface BashOptions {
  /** The workspace root; every `cwd` must resolve inside it. */
  readonly workspaceRoot: string;
  /**
   * Where a symbolic link on the way to a command's `cwd` may lead (the workspace gate's `linkRule`): a permission
   * policy's path rules applied to the real directory. The coding toolkit sets it from its policy.
   */
  readonly linkRule?: RunOptions['linkRule'];
  /** Variables added to every command's environment exactly as given (the caller's explicit choice). */
  readonly env?: Record<string, string>;
  /** Where inherited variables come from (default: the host process); only allow-listed, non-secret names pass. */
  readonly baseEnv?: Record<string, string | undefined>;
  /** Overrides for `DEFAULT_BASH_LIMITS`. */
  readonly limits?: Partial<BashLimits>;
  /**
   * The OS sandbox (bubblewrap) for every command and job: `off` (default), `auto` (sandbox where it works, else run
   * plainly and say so) or `required` (refuse with `sandbox_unavailable` when it cannot).
   */
  readonly sandbox?: SandboxMode;
  /** Let sandboxed commands use the network (default false). Ignored without a sandbox. */
  readonly network?: boolean;
  /** Host paths inside directories the sandbox hides (home, /tmp, …) that commands may still read, e.g. a toolchain. */
  readonly sandboxReadOnlyPaths?: readonly string[];
  /**
   * The protected-name policy of the session (default the workspace's `DEFAULT_PROTECTED`). Inside the OS sandbox,
   * files and folders with these names are hidden from the command. Without the sandbox nothing can stop a command
   * from opening them: a caller who needs that uses the sandbox, or a permission policy that looks at the command.
   */
  readonly protectedNames?: SandboxSettings['protectedNames'];
  /**
   * Workspace-relative globs (picomatch) the OS sandbox keeps unreadable: matches found when a command starts are
   * hidden like protected files, and one that appears during the command withholds its output. A pattern the sandbox
   * cannot enforce (absolute, `..`, negated, empty) makes the tool's creation throw a `ConfigurationError`. Without
   * the sandbox these rules cannot be enforced and are not (say `sandbox: 'required'` to be sure they are).
   */
  readonly denyRead?: readonly string[];
  /** Workspace-relative globs the OS sandbox mounts read-only (matches found when a command starts; see the README). */
  readonly denyWrite?: readonly string[];
  /** Where `background: true` jobs live (shared with the jobs tool); without it background requests are refused. */
  readonly jobs?: JobStore;
}

/** Options of one call: the tool's configuration plus the call's cancellation signal. */
export interface BashCallOptions extends BashOptions {
  readonly signal?: AbortSignal;
  /**
   * The OS sandbox settings of these options, checked and compiled once (`createBashTool` does it when the tool is
   * made); without it each call checks and compiles them itself.
   */
  readonly checkedSandbox?: CheckedSandbox;
  /** Receives a running count of output bytes while the command runs (the CLI shows it as a counter). */
  readonly progress?: (update: ToolProgress) => void;
}
