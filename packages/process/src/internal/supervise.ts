import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { type ProcessFailure, processFailure } from '../failure.js';
import type { ProcessResult } from '../process-result.js';
import { OutputCapture } from './output-capture.js';
import { signalGroup } from './process-group.js';
import { waitForGroup, watchInitReport } from './sandbox-init.js';
import { spawnGroup } from './spawn-group.js';

/** Everything needed to run one already-validated command. */
export interface SuperviseSpec {
  program: string;
  argv: readonly string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  drainMs: number;
  killGraceMs: number;
  reapWaitMs: number;
  signal: AbortSignal | undefined;
  onStdout: ((chunk: Buffer) => void) | undefined;
  onStderr: ((chunk: Buffer) => void) | undefined;
  /** When set, stderr goes to this descriptor rather than a pipe. */
  stderrFd?: number | undefined;
  /** The OS sandbox's extra pipes (see `PreparedCommand.pipes`). */
  pipes?: readonly number[] | undefined;
}

/**
 * Runs the child in its own process group and settles on its exit plus a bounded drain window, never on pipe EOF,
 * so a grandchild that keeps the pipes open cannot hold the call; the whole group is killed before settling.
 */
export function supervise(spec: SuperviseSpec): Promise<ProcessResult | ProcessFailure> {
  return new Promise((settle) => {
    const started = performance.now();
    let child: ChildProcess;
    try {
      child = spawnGroup(spec);
    } catch (error) {
      settle(spawnFailure(error));
      return;
    }
    const pid = child.pid;
    const initPid = watchInitReport(child, spec.pipes);
    const out = new OutputCapture(spec.maxOutputBytes, 'stdout');
    const err = new OutputCapture(spec.maxOutputBytes, 'stderr');
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, fn: () => void) => timers.add(setTimeout(fn, ms));
    let openStreams = 2;
    let exited = false;
    let stopping = false;
    let done = false;
    let returnCode: number | null = null;
    let exitSignal: string | null = null;
    let timedOut = false;
    let aborted = false;

    const finish = (failure?: ProcessFailure) => {
      if (done) return;
      done = true;
      for (const timer of timers) clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      // Whatever the command left behind in its group goes with it; when the group is already empty (the usual case)
      // nothing can join it any more, so there is nothing to wait for.
      const groupLeft = signalGroup(pid, 'SIGKILL');
      const init = initPid();
      for (const stream of child.stdio) stream?.destroy();
      if (failure) {
        settle(failure);
        return;
      }
      const stdout = out.finish();
      const stderr = err.finish();
      const result: ProcessResult = {
        success: true,
        stdout: stdout.text,
        stderr: stderr.text,
        return_code: returnCode,
        signal: exitSignal,
        timed_out: timedOut,
        aborted,
        stdout_truncated: stdout.truncated,
        stderr_truncated: stderr.truncated,
        stdout_bytes: stdout.totalBytes,
        stderr_bytes: stderr.totalBytes,
        stdout_binary: stdout.binary,
        stderr_binary: stderr.binary,
        duration_ms: 0,
        timeout_ms: spec.timeoutMs,
      };
      const report = () => settle({ ...result, duration_ms: Math.round(performance.now() - started) });
      // Something was left (a timeout, an abort): wait until it is gone. In the OS sandbox the SIGKILL reached the
      // namespace's init, which stays alive until the kernel has killed everything else in the namespace, so this
      // also waits for those; the sandbox's after-command git check must not race a process still finishing a write.
      if (groupLeft) void waitForGroup(pid as number, init, spec.reapWaitMs).then(report);
      else report();
    };

    const stop = (reason: 'timeout' | 'abort') => {
      if (reason === 'timeout') timedOut = true;
      else aborted = true;
      if (exited) {
        finish(); // only the drain window was left; cut it short
        return;
      }
      if (stopping) return;
      stopping = true;
      signalGroup(pid, 'SIGTERM');
      later(spec.killGraceMs, () => {
        signalGroup(pid, 'SIGKILL');
        // A child stuck in the kernel may never report its exit; do not wait for it forever.
        later(spec.killGraceMs + spec.drainMs, () => finish());
      });
    };
    const onAbort = () => stop('abort');

    const wire = (stream: NodeJS.ReadableStream | null, capture: OutputCapture, observer?: (chunk: Buffer) => void) => {
      if (!stream) {
        openStreams--;
        return;
      }
      stream.on('data', (chunk: Buffer) => {
        capture.push(chunk);
        if (observer) {
          try {
            observer(chunk);
          } catch {
            // an observer's bug must not break the capture
          }
        }
      });
      stream.on('error', () => {});
      stream.once('close', () => {
        openStreams--;
        if (exited && openStreams === 0) finish();
      });
    };
    wire(child.stdout, out, spec.onStdout);
    wire(child.stderr, err, spec.onStderr);

    child.on('error', (error) => {
      if (pid === undefined) finish(spawnFailure(error));
    });
    child.once('exit', (code, signal) => {
      exited = true;
      returnCode = code;
      exitSignal = signal;
      if (stopping) signalGroup(pid, 'SIGKILL'); // a grandchild ignoring TERM gets no further grace
      if (openStreams === 0) finish();
      else later(spec.drainMs, () => finish());
    });
    if (pid === undefined) return; // the 'error' event reports why

    later(spec.timeoutMs, () => stop('timeout'));
    if (spec.signal) {
      if (spec.signal.aborted) stop('abort');
      else spec.signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}

function spawnFailure(error: unknown): ProcessFailure {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') {
    return processFailure('command_not_found', 'The program could not be started because it was not found.');
  }
  if (code === 'E2BIG') {
    return processFailure(
      'spawn_failed',
      'The arguments are too long for the operating system. Shorten the command or put the data in a file.',
    );
  }
  const detail = code ?? (error instanceof Error ? error.message : 'unknown error');
  return processFailure(
    'spawn_failed',
    `The program could not be started (${detail}). Check that it is an executable file.`,
  );
}
