import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { type ProcessFailure, processFailure } from './failure.js';
import { prepareCommand } from './internal/prepare.js';
import { signalGroup } from './internal/process-group.js';
import { waitForGroup, watchInitReport } from './internal/sandbox-init.js';
import { spawnGroup } from './internal/spawn-group.js';
import { PROCESS_LIMITS } from './limits.js';
import type { PreparedCommand } from './prepared-command.js';
import type { RunOptions } from './run-options.js';

/** How to start a long-running program; the argv, cwd and environment rules are those of {@link runProcess}. */
export interface StartOptions
  extends Pick<
    RunOptions,
    'cwd' | 'workspaceRoot' | 'linkRule' | 'env' | 'inheritEnv' | 'baseEnv' | 'drainMs' | 'reapWaitMs'
  > {
  /** Receives every stdout chunk as it arrives; the chunk belongs to the receiver. */
  onStdout: (chunk: Buffer) => void;
  /** Receives every stderr chunk as it arrives. */
  onStderr: (chunk: Buffer) => void;
  /**
   * Turns the checked command into the one actually spawned (the OS sandbox wraps it in `bwrap`); returns the
   * command unchanged or a failure that stops the start.
   */
  wrap?: (command: PreparedCommand) => PreparedCommand | ProcessFailure;
  /** Gives the program a stdin pipe ({@link StartedProcess.stdin}) instead of an empty stdin, for request/response servers. */
  stdinPipe?: boolean;
}

/** How a started program ended. */
export interface ProcessExit {
  /** Exit code, or null when the program ended by a signal. */
  readonly return_code: number | null;
  readonly signal: string | null;
}

/** A program running in its own process group; nothing it started outlives {@link StartedProcess.stop}. */
export interface StartedProcess {
  readonly success: true;
  /** Pid of the direct child, which is also the process group id. */
  readonly pid: number;
  /**
   * Settles once the direct child exited, its pipes drained (bounded by `drainMs`) and everything left in its group
   * was killed; never rejects.
   */
  readonly done: Promise<ProcessExit>;
  /** The program's stdin, present when started with `stdinPipe`; write errors after its exit are swallowed. */
  readonly stdin?: Writable;
  /** SIGTERM to the group, `graceMs` later SIGKILL; resolves with {@link StartedProcess.done}. */
  stop(graceMs: number): Promise<ProcessExit>;
  /** SIGKILL to the group at once, synchronously (for process exit handlers). */
  killNow(): void;
}

/**
 * Starts a program without a shell in its own process group and returns at once, for background jobs: output goes
 * to the callbacks, the end is reported through `done`, and the same rules as {@link runProcess} apply before spawning.
 */
export async function startProcess(
  argv: readonly string[],
  options: StartOptions,
): Promise<StartedProcess | ProcessFailure> {
  const checked = await prepareCommand(argv, options);
  if (!('program' in checked)) return checked;
  const command = options.wrap ? options.wrap(checked) : checked;
  if (!('program' in command)) return command;
  const { drainMs, reapWaitMs } = PROCESS_LIMITS.resolve({ drainMs: options.drainMs, reapWaitMs: options.reapWaitMs });
  let child: ChildProcess;
  try {
    child = spawnGroup({ ...command, stdinPipe: options.stdinPipe === true });
  } catch (error) {
    return startFailure(error);
  }
  const pid = child.pid;
  if (pid === undefined) {
    const error = await new Promise<unknown>((resolve) => child.once('error', resolve));
    return startFailure(error);
  }
  child.on('error', () => {});
  child.stdout?.on('data', options.onStdout);
  child.stderr?.on('data', options.onStderr);
  child.stdout?.on('error', () => {});
  child.stderr?.on('error', () => {});
  child.stdin?.on('error', () => {});
  const initPid = watchInitReport(child, command.pipes);
  const done = watchExit(child, pid, drainMs, reapWaitMs, initPid);
  return {
    success: true,
    pid,
    done,
    ...(child.stdin ? { stdin: child.stdin } : {}),
    stop(graceMs) {
      if (signalGroup(pid, 'SIGTERM')) {
        const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
        void done.then(() => clearTimeout(timer));
      }
      return done;
    },
    killNow: () => {
      signalGroup(pid, 'SIGKILL');
    },
  };
}

/** Settles when the child has exited, the pipes are drained or cut, and the rest of its group is gone. */
function watchExit(
  child: ChildProcess,
  pid: number,
  drainMs: number,
  reapWaitMs: number,
  initPid: () => number | undefined,
): Promise<ProcessExit> {
  return new Promise((settle) => {
    let open = (child.stdout ? 1 : 0) + (child.stderr ? 1 : 0);
    let exit: ProcessExit | undefined;
    let finished = false;
    const finish = () => {
      if (finished || !exit) return;
      finished = true;
      const left = signalGroup(pid, 'SIGKILL');
      const init = initPid();
      for (const stream of child.stdio) stream?.destroy();
      const result = exit;
      // Wait for what was left; in the OS sandbox the namespace's init lives until the rest of the namespace is gone.
      if (left) void waitForGroup(pid, init, reapWaitMs).then(() => settle(result));
      else settle(result);
    };
    for (const stream of [child.stdout, child.stderr]) {
      stream?.once('close', () => {
        open--;
        if (open === 0) finish();
      });
    }
    child.once('exit', (code, signal) => {
      exit = { return_code: code, signal };
      if (open === 0) finish();
      else setTimeout(finish, drainMs);
    });
  });
}

function startFailure(error: unknown): ProcessFailure {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return processFailure('command_not_found', 'The program was not found when it was started.');
  const detail = code ?? (error instanceof Error ? error.message : 'unknown error');
  return processFailure('spawn_failed', `The program could not be started (${detail}).`);
}
