import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProtectedNamePolicy } from '@bough/workspace';
import { type ProcessFailure, processFailure } from './failure.js';
import { bwrapArgs, hiddenRoots, isWithin } from './internal/bwrap-args.js';
import { type ProtectedScan, scanProtected } from './internal/protected-scan.js';
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
   * After (or while) the command ran: a message when a protected file appeared that the sandbox could not hide (it
   * did not exist when the command started), so the caller withholds the output; undefined when nothing did.
   */
  check(): string | undefined;
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

let blank: string | undefined;

/** An empty file nobody may read (mode 000), bound over protected files; removed when the process exits. */
function blankFile(): string {
  if (blank && existsSync(blank)) return blank;
  const dir = mkdtempSync(join(tmpdir(), 'bough-sandbox-'));
  const file = join(dir, 'hidden');
  writeFileSync(file, '');
  chmodSync(file, 0o000);
  blank = file;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return file;
}

/**
 * Prepares the confinement of one command in `workspaceRoot`: `off` (or `auto` without bubblewrap) gives a session
 * that changes nothing; `required` without bubblewrap gives a `sandbox_unavailable` failure.
 */
export function openSandbox(
  workspaceRoot: string,
  settings: SandboxSettings | undefined,
): SandboxSession | ProcessFailure {
  const mode = settings?.mode ?? 'off';
  if (mode === 'off') return PLAIN;
  const support = sandboxSupport(settings?.bwrapPath);
  if (!support.available) {
    if (mode === 'required') {
      return processFailure(
        'sandbox_unavailable',
        `The OS sandbox is required but cannot be used here (${support.reason}); nothing was run. Ask the user to install bubblewrap or allow unprivileged user namespaces.`,
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
  const masked = scanProtected(root, settings?.protectedNames, scanLimit);
  const known = new Set([...masked.files, ...masked.dirs]);
  const note = masked.partial
    ? `The workspace has more than ${scanLimit} entries, so protected files beyond them were not looked for and are not hidden from the command.`
    : undefined;
  return {
    sandboxed: true,
    ...(note ? { note } : {}),
    wrap: (command) => wrapCommand(command, root, settings, support, masked),
    check: () => {
      const now = scanProtected(root, settings?.protectedNames, scanLimit);
      const fresh = [...now.files, ...now.dirs].filter((path) => !known.has(path));
      if (fresh.length === 0) return undefined;
      return (
        `A protected file appeared in the workspace while the command ran (${fresh.length} new, for example ` +
        `${JSON.stringify(fresh[0]?.slice(root.length + 1))}); the sandbox could only hide the ones that existed ` +
        'when it started, so the output is withheld. Run the command again: files that exist now will be hidden from it.'
      );
    },
  };
}

const PLAIN: SandboxSession = Object.freeze({
  sandboxed: false,
  wrap: (command: PreparedCommand) => command,
  check: () => undefined,
});

function wrapCommand(
  command: PreparedCommand,
  workspaceRoot: string,
  settings: SandboxSettings | undefined,
  support: SandboxSupport,
  masked: ProtectedScan,
): PreparedCommand | ProcessFailure {
  const readOnly = settings?.readOnlyPaths ?? [];
  const hidden = hiddenRoots().find((dir) => isWithin(command.program, dir));
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
  const args = bwrapArgs({
    workspaceRoot,
    cwd: command.cwd,
    network: settings?.network === true,
    userNamespace: support.userNamespace,
    readOnlyPaths: readOnly,
    masked,
    blankFile: blankFile(),
  });
  return {
    program: support.bwrap as string,
    argv: ['bwrap', ...args, '--', command.program, ...command.argv.slice(1)],
    cwd: command.cwd,
    env: command.env,
    confined: true,
  };
}
