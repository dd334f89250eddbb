import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmdirSync, statfsSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ProcessFailure, type RunProcessOutcome, runProcess } from '@bough/process';
import { failure, isSearchErrorCode, type SearchFailure } from '../errors.js';

/** How to run ripgrep for one search. */
export interface RgRunOptions {
  readonly rgPath: string;
  readonly args: readonly string[];
  /** Absolute directory ripgrep runs in (already checked by the workspace). */
  readonly cwd: string;
  readonly workspaceRoot: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Receives every stdout chunk; call `stop()` once enough was read and ripgrep is killed. */
  readonly onStdout: (chunk: Buffer, stop: () => void) => void;
  /** Receives every stderr chunk (ripgrep's errors and, with `--debug`, its log of skipped files). */
  readonly onStderr?: (chunk: Buffer) => void;
  /**
   * Stops ripgrep once its stderr passes this many bytes (`logOverflow` then says so), for a run whose `--debug` log
   * would cost more than the search itself; the log read so far is still handed to `onStderr`.
   */
  readonly logBudgetBytes?: number;
}

/** The process outcome plus whether this package stopped ripgrep on purpose. */
export interface RgRun {
  readonly outcome: RunProcessOutcome;
  /** Stopped by the caller's `stop()` (not by its abort signal, nor for the log budget). */
  readonly stoppedEarly: boolean;
  /** Stopped because stderr passed `logBudgetBytes`: the run is incomplete and should be made again without `--debug`. */
  readonly logOverflow: boolean;
}

// How often the size of a log written to a file is looked at while ripgrep runs (one fstat each time).
const LOG_WATCH_MS = 10;

// Free space a memory filesystem must have before the log goes there: far more than any log (a line per skipped entry).
const MIN_MEMORY_FS_BYTES = 1024 ** 3;
// statfs type of tmpfs.
const TMPFS_MAGIC = 0x01021994;

/**
 * Where the log file is made: /dev/shm when it is a memory filesystem with room to spare, where ripgrep's many small
 * writes cost measurably less than on a disk filesystem (no journal); otherwise the system temp directory.
 */
function logDirs(): string[] {
  if (process.platform !== 'linux') return [tmpdir()];
  try {
    const fs = statfsSync('/dev/shm');
    if (fs.type === TMPFS_MAGIC && fs.bavail * fs.bsize >= MIN_MEMORY_FS_BYTES) return ['/dev/shm', tmpdir()];
  } catch {
    // no /dev/shm here
  }
  return [tmpdir()];
}

/**
 * An anonymous file for ripgrep's stderr: a private directory, a file created in it, then both unlinked, so only the
 * descriptor is left. `--debug` writes its log in many small writes; into a pipe each one can wake this process,
 * into a file none do. Undefined when no temp file can be made (the log then goes through a pipe as before).
 */
function anonymousLogFile(): number | undefined {
  for (const base of logDirs()) {
    const fd = anonymousFileIn(base);
    if (fd !== undefined) return fd;
  }
  return undefined;
}

function anonymousFileIn(base: string): number | undefined {
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(base, 'bough-rg-'));
    const path = join(dir, 'stderr');
    const fd = openSync(path, 'wx+', 0o600);
    unlinkSync(path);
    return fd;
  } catch {
    return undefined;
  } finally {
    if (dir !== undefined) {
      try {
        rmdirSync(dir);
      } catch {
        // left behind only if the unlink above failed
      }
    }
  }
}

const REPLAY_CHUNK = 64 * 1024;

/** Feeds what was written to `fd` to `onChunk`, chunk by chunk, so memory stays bounded whatever the log's size. */
function replayLog(fd: number, onChunk: (chunk: Buffer) => void): void {
  const buffer = Buffer.allocUnsafe(REPLAY_CHUNK);
  for (let position = 0; ; ) {
    const read = readSync(fd, buffer, 0, REPLAY_CHUNK, position);
    if (read <= 0) return;
    onChunk(Buffer.from(buffer.subarray(0, read)));
    position += read;
  }
}

/**
 * Runs ripgrep under the process rules with an early-stop switch tied to the caller's abort signal. stderr, when the
 * caller reads it, goes to an anonymous file that is read once ripgrep has exited.
 */
export async function runRg(options: RgRunOptions): Promise<RgRun> {
  const stopper = new AbortController();
  const signal = options.signal ? AbortSignal.any([stopper.signal, options.signal]) : stopper.signal;
  const stop = () => stopper.abort();
  const logFd = options.onStderr ? anonymousLogFile() : undefined;
  try {
    return await runLogged(options, signal, stopper, stop, logFd);
  } finally {
    if (logFd !== undefined) closeSync(logFd);
  }
}

async function runLogged(
  options: RgRunOptions,
  signal: AbortSignal,
  stopper: AbortController,
  stop: () => void,
  logFd: number | undefined,
): Promise<RgRun> {
  const budget = options.onStderr ? options.logBudgetBytes : undefined;
  let logOverflow = false;
  const overflow = () => {
    if (logOverflow) return;
    logOverflow = true;
    stop();
  };
  let onStderr = options.onStderr;
  let watch: NodeJS.Timeout | undefined;
  if (budget !== undefined && logFd !== undefined) {
    // ripgrep writes the log straight into the file, so its size is looked at now and then.
    watch = setInterval(() => {
      if (fstatSync(logFd).size > budget) overflow();
    }, LOG_WATCH_MS);
  } else if (budget !== undefined && onStderr) {
    let seen = 0;
    const forward = onStderr;
    onStderr = (chunk) => {
      seen += chunk.length;
      if (seen > budget) overflow();
      forward(chunk);
    };
  }
  let outcome: RunProcessOutcome;
  try {
    outcome = await runProcess([options.rgPath, ...options.args], {
      cwd: options.cwd,
      workspaceRoot: options.workspaceRoot,
      timeoutMs: options.timeoutMs,
      signal,
      // stdout is consumed as a stream; the captured copy is only a fallback, so keep it small.
      maxOutputBytes: 4096,
      killGraceMs: 500,
      onStdout: (chunk) => {
        if (!stopper.signal.aborted) options.onStdout(chunk, stop);
      },
      ...(logFd !== undefined ? { stderrFd: logFd } : onStderr ? { onStderr } : {}),
    });
  } finally {
    if (watch !== undefined) clearInterval(watch);
  }
  if (logFd !== undefined && options.onStderr) replayLog(logFd, options.onStderr);
  const stoppedByUs = stopper.signal.aborted && !(options.signal?.aborted ?? false);
  return { outcome, stoppedEarly: stoppedByUs && !logOverflow, logOverflow: stoppedByUs && logOverflow };
}

/** Loads the ripgrep binary path lazily, so importing this package never touches the platform binary. */
export async function loadRgPath(override: string | undefined): Promise<string | SearchFailure> {
  if (override) return override;
  try {
    const mod = (await import('@vscode/ripgrep')) as { rgPath: string };
    return mod.rgPath;
  } catch {
    return failure(
      'search_unavailable',
      'The ripgrep binary for this platform is not installed, so search cannot run. Reinstall @vscode/ripgrep.',
    );
  }
}

/**
 * The failure to return when ripgrep did not run: a binary that is missing or cannot be executed is
 * `search_unavailable` (the set-up is broken, not the request); anything else (a refused cwd, an abort) passes through.
 */
export function rgFailure(outcome: ProcessFailure): SearchFailure {
  if (outcome.error_code === 'command_not_found' || outcome.error_code === 'spawn_failed') {
    return failure(
      'search_unavailable',
      `The ripgrep binary could not be started, so search cannot run (${outcome.error_code}). Reinstall @vscode/ripgrep or fix the configured rgPath.`,
    );
  }
  // A refused cwd or an abort keeps its code; a process code this tool does not know is a failed search.
  return failure(isSearchErrorCode(outcome.error_code) ? outcome.error_code : 'search_failed', outcome.error);
}
