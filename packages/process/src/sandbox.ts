import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { ConfigurationError } from '@bough/core';
import type { ProtectedNamePolicy } from '@bough/workspace';
import { type ProcessFailure, processFailure } from './failure.js';
import { blankFile } from './internal/blank-file.js';
import { bwrapArgs, hiddenRoots, isWithin } from './internal/bwrap-args.js';
import { compileDenyRules, type DenyMatchers } from './internal/deny-rules.js';
import { CLOSING_OPTIONS, closerArgv, closerShell, inheritableDescriptors } from './internal/fd-closer.js';
import { guardGit } from './internal/git-guard.js';
import { INFO_FD } from './internal/sandbox-init.js';
import { WatchedIdentities, withoutSocketVariables } from './internal/sandbox-watch.js';
import { scanWorkspace, type WorkspaceScan } from './internal/workspace-scan.js';
import { PROCESS_LIMITS } from './limits.js';
import type { PreparedCommand } from './prepared-command.js';

/** `off`: never sandbox; `auto`: sandbox where bubblewrap works, else run plainly; `required`: refuse without it. */
export type SandboxMode = 'off' | 'auto' | 'required';

/** How commands of one tool are confined. */
export interface SandboxSettings {
  readonly mode: SandboxMode;
  /** Let sandboxed commands use the network (default false: a new, empty network namespace). */
  readonly network?: boolean;
  /** The protected-name policy whose files are hidden (default the workspace defaults). */
  readonly protectedNames?: ProtectedNamePolicy;
  /** Host paths inside hidden directories (home, /tmp, …) that commands may read, such as a tool installation. */
  readonly readOnlyPaths?: readonly string[];
  /** Entries looked at to find protected files (default `DEFAULT_PROCESS_LIMITS.sandboxScanEntries`); a positive integer, or it throws. */
  readonly scanEntries?: number;
  /**
   * Workspace-relative globs (picomatch syntax, dotfiles included) of paths the command may not read: each match
   * found when the command starts is hidden like a protected file (a directory as a whole), and a match that appears
   * while it runs withholds the output. A pattern the sandbox cannot enforce throws a `ConfigurationError`.
   */
  readonly denyRead?: readonly string[];
  /**
   * Workspace-relative globs of paths the command may not change: each match found when the command starts is
   * mounted read-only (a directory as a whole). A match the command creates is not prevented (see the bash README).
   */
  readonly denyWrite?: readonly string[];
  /** The bubblewrap executable (default `bwrap` on PATH). */
  readonly bwrapPath?: string;
}

/** Whether bubblewrap can create the namespaces a sandbox needs on this host, and why not. */
export interface SandboxSupport {
  readonly available: boolean;
  /** The bwrap path that worked. */
  readonly bwrap?: string;
  /** Whether a user namespace (with nested ones disabled) could be created as well. */
  readonly userNamespace: boolean;
  /** Why the sandbox is unavailable (missing bwrap, namespaces refused, …). */
  readonly reason?: string;
}

/** One command's confinement: wrap the checked command, then check what appeared while it ran. */
export interface SandboxSession {
  readonly sandboxed: boolean;
  /** Why a command in `auto` mode ran without the sandbox, or what the sandbox did not fully cover. */
  readonly note?: string;
  /** Turns the checked command into the bwrap command (identity when not sandboxed). */
  wrap(command: PreparedCommand): PreparedCommand | ProcessFailure;
  /**
   * After (or while) the command ran: a message when a hidden file may have been readable (a protected or deny-read
   * path appeared, or a hidden one was replaced, deleted or re-created, so the mount no longer covers it), and the
   * caller withholds the output; undefined when nothing did.
   */
  check(): string | undefined;
  /**
   * Once the command (and everything it started) has ended: undoes what git would run or read later outside the
   * sandbox (new `.git` entries, changed hooks or config, …) and returns a note saying what was undone, or undefined.
   * Only the first call does the work; later calls return the same note, and {@link SandboxSession.check} then
   * reuses its scan of the workspace (call `finish()` first when the command has ended).
   */
  finish(): string | undefined;
}

const probes = new Map<string, SandboxSupport>();

/** Probes (once per bwrap path and process) whether bubblewrap can build the sandbox here. */
export function sandboxSupport(bwrapPath = 'bwrap'): SandboxSupport {
  const cached = probes.get(bwrapPath);
  if (cached) return cached;
  const base = ['--die-with-parent', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--proc', '/proc'];
  const tryRun = (extra: string[]) =>
    spawnSync(bwrapPath, [...extra, ...base, 'true'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
  let result: SandboxSupport;
  const withUser = tryRun(['--unshare-user', '--disable-userns']);
  if (withUser.status === 0) result = { available: true, bwrap: bwrapPath, userNamespace: true };
  else {
    const plain = tryRun([]);
    if (plain.status === 0) result = { available: true, bwrap: bwrapPath, userNamespace: false };
    else {
      const why = plain.error
        ? `bubblewrap (${bwrapPath}) could not be run: ${(plain.error as NodeJS.ErrnoException).code ?? plain.error.message}`
        : `bubblewrap could not create namespaces: ${String(plain.stderr).trim().slice(0, 200) || `exit ${plain.status}`}`;
      result = { available: false, userNamespace: false, reason: why };
    }
  }
  probes.set(bwrapPath, result);
  return result;
}

/**
 * Prepares the confinement of one command in `workspaceRoot`: `off` (or `auto` without bubblewrap) gives a session
 * that changes nothing; `required` without bubblewrap gives a `sandbox_unavailable` failure. Deny patterns the
 * sandbox cannot enforce throw a `ConfigurationError` whatever the mode (see {@link checkSandboxSettings}).
 */
export function openSandbox(
  workspaceRoot: string,
  settings: SandboxSettings | undefined,
): SandboxSession | ProcessFailure {
  return openChecked(workspaceRoot, settings, checkedDenyRules(settings));
}

function openChecked(
  workspaceRoot: string,
  settings: SandboxSettings | undefined,
  deny: DenyMatchers,
): SandboxSession | ProcessFailure {
  const mode = settings?.mode ?? 'off';
  if (mode === 'off') return PLAIN;
  const support = sandboxSupport(settings?.bwrapPath);
  if (!support.available) {
    if (mode === 'required' || deny.any) {
      return processFailure(
        'sandbox_unavailable',
        `The OS sandbox is ${mode === 'required' ? 'required' : 'needed for the deny rules'} but cannot be used here (${support.reason}); nothing was run. Ask the user to install bubblewrap or allow unprivileged user namespaces.`,
      );
    }
    return { ...PLAIN, note: `The OS sandbox is not available here (${support.reason}); the command ran without it.` };
  }
  let root: string;
  try {
    root = realpathSync.native(workspaceRoot);
  } catch {
    return PLAIN; // the command itself will be refused with invalid_cwd
  }
  const scanLimit = PROCESS_LIMITS.resolve({ sandboxScanEntries: settings?.scanEntries }).sandboxScanEntries;
  const scan = scanWorkspace(root, settings?.protectedNames, deny, scanLimit);
  if (scan.partial && deny.any) {
    return processFailure(
      'sandbox_unenforceable',
      `The workspace has more than ${scanLimit} entries, so the sandbox cannot find every path its deny rules name; nothing was run. Ask the user to raise scanEntries or narrow the workspace.`,
    );
  }
  const git = guardGit(root, scan.git);
  const notes: string[] = [];
  if (scan.partial) {
    notes.push(
      `The workspace has more than ${scanLimit} entries, so protected files and git directories beyond them were not looked for: they are not hidden from the command, and git changes there may not be undone.`,
    );
  } else if (git.partial)
    notes.push('A git directory is too large to record whole; git changes in it may not be undone.');
  const watch = new WatchedIdentities(scan);
  const rescan = () => scanWorkspace(root, settings?.protectedNames, deny, scanLimit);
  // Once the command has ended the tree no longer changes under it, so the scan of finish() also serves check().
  let ended: { scan: WorkspaceScan; note: string | undefined } | undefined;
  return {
    sandboxed: true,
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
    wrap: (command) => wrapCommand(command, root, settings, support, scan, git.binds),
    check: () => {
      const now = ended?.scan ?? rescan();
      if (now.partial && deny.any) {
        return `The workspace grew past ${scanLimit} entries while the command ran, so the sandbox cannot tell whether a path its deny rules hide appeared; the output is withheld.`;
      }
      return watch.check(root, now);
    },
    finish: () => {
      if (!ended) {
        const after = rescan();
        ended = { scan: after, note: git.repair(after.git, scan.partial || after.partial) };
      }
      return ended.note;
    },
  };
}

/** Sandbox settings checked once, their deny patterns compiled: each command's confinement is opened from it. */
export interface CheckedSandbox {
  readonly settings: SandboxSettings | undefined;
  /** {@link openSandbox} with these settings, without checking and compiling them again. */
  open(workspaceRoot: string): SandboxSession | ProcessFailure;
}

/**
 * Throws a `ConfigurationError` when a setting cannot be enforced (a deny pattern outside the workspace, negated,
 * empty, …); call it when a tool is configured so a bad rule is refused at setup, not at the first command, and open
 * every command's sandbox from the answer so the patterns are compiled once.
 */
export function checkSandboxSettings(settings: SandboxSettings | undefined): CheckedSandbox {
  const deny = checkedDenyRules(settings);
  return Object.freeze({ settings, open: (workspaceRoot: string) => openChecked(workspaceRoot, settings, deny) });
}

/** The compiled deny rules; rules with the sandbox off would be dropped, so that is refused too. */
function checkedDenyRules(settings: SandboxSettings | undefined): DenyMatchers {
  const deny = compileDenyRules(settings?.denyRead, settings?.denyWrite);
  if (deny.any && (settings?.mode ?? 'off') === 'off') {
    throw new ConfigurationError(
      "denyRead and denyWrite are enforced only by the OS sandbox, which is off: set the sandbox mode to 'required' (or 'auto', which then refuses to run commands where bubblewrap is missing) or remove the rules.",
    );
  }
  return deny;
}

const PLAIN: SandboxSession = Object.freeze({
  sandboxed: false,
  wrap: (command: PreparedCommand) => command,
  check: () => undefined,
  finish: () => undefined,
});

function wrapCommand(
  command: PreparedCommand,
  workspaceRoot: string,
  settings: SandboxSettings | undefined,
  support: SandboxSupport,
  scan: WorkspaceScan,
  gitBinds: readonly string[],
): PreparedCommand | ProcessFailure {
  const readOnly = settings?.readOnlyPaths ?? [];
  const roots = hiddenRoots();
  const hidden = roots.find((dir) => isWithin(command.program, dir));
  if (
    hidden !== undefined &&
    !isWithin(command.program, workspaceRoot) &&
    !readOnly.some((path) => isWithin(command.program, path))
  ) {
    return processFailure(
      'sandbox_hidden_program',
      `The program resolves to ${command.program}, inside ${hidden}, which the OS sandbox hides; nothing was run. Call a system copy by its path (for example /usr/bin/${command.argv[0]?.split('/').pop()}) or ask the user to add the directory to the sandbox's readOnlyPaths.`,
    );
  }
  let inner = [command.program, ...command.argv.slice(1)];
  // Pipes of ours handed to bwrap (see fd-closer): at the host's inheritable descriptors when they are few, which
  // replaces them in the spawned child; the first receives the --info-fd report of the init's pid.
  const held = inheritableDescriptors();
  const pipes = held.length === 0 ? [INFO_FD] : held.length <= CLOSING_OPTIONS.length ? held : [INFO_FD];
  if (held.length > CLOSING_OPTIONS.length) {
    const shell = closerShell();
    if (!shell) {
      return processFailure(
        'sandbox_unavailable',
        'This process holds open descriptors a command would inherit, and no bash was found to close them inside the OS sandbox; nothing was run. Ask the user to install bash or start the host without extra open descriptors.',
      );
    }
    inner = closerArgv(shell, command.program, command.argv.slice(1));
  }
  const args = bwrapArgs({
    workspaceRoot,
    cwd: command.cwd,
    network: settings?.network === true,
    userNamespace: support.userNamespace,
    readOnlyPaths: readOnly,
    scan,
    gitBinds,
    blankFile: blankFile(),
    hiddenRoots: roots,
    descriptors: pipes.flatMap((fd, at) => [CLOSING_OPTIONS[at] as string, String(fd)]),
  });
  return {
    program: support.bwrap as string,
    argv: ['bwrap', ...args, '--', ...inner],
    cwd: command.cwd,
    env: withoutSocketVariables(command.env),
    confined: true,
    pipes,
  };
}
