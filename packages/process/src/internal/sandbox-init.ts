import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { liveInGroup, signalGroup, waitForGroupToDie } from './process-group.js';

// When a sandboxed command exits, bubblewrap's outer process reports its status at once, while the namespace's init
// (pid 1 inside, in the same process group) is still ending the namespace. The group is therefore never empty when
// the exit arrives, and the generic wait (every /proc/<pid>/stat of the machine, every 5 ms) cost more than the
// sandbox itself. bubblewrap names the init on its `--info-fd` (`"child-pid": N`, written before the command starts
// and closed in the command; the first of the sandbox's pipes), so the wait can watch that one process instead: the kernel ends every other process
// of the namespace before its init becomes a zombie, and nothing outside the namespace joins the group, so a dead
// init means nothing the command started is still running. Without the report the generic wait applies.

/** The descriptor bubblewrap reports on when the host holds no inheritable descriptor to put a pipe at instead. */
export const INFO_FD = 3;

/**
 * Collects bubblewrap's report from the first of the child's extra pipes (the others are drained and dropped);
 * returns the init's host pid once the report has ended, else undefined.
 */
export function watchInitReport(child: ChildProcess, pipes: readonly number[] | undefined): () => number | undefined {
  for (const fd of pipes?.slice(1) ?? []) {
    const other = child.stdio[fd];
    if (other && 'resume' in other) {
      other.on('error', () => {});
      other.resume();
    }
  }
  const first = pipes?.[0];
  const stream = first === undefined ? undefined : child.stdio[first];
  if (!stream || !('on' in stream)) return () => undefined;
  let text = '';
  let ended = false;
  stream.on('data', (chunk: Buffer) => {
    if (text.length < 4096) text += chunk.toString('latin1');
  });
  stream.on('error', () => {});
  stream.once('end', () => {
    ended = true;
  });
  return () => {
    if (!ended) return undefined;
    const found = /"child-pid"\s*:\s*(\d+)/.exec(text);
    const pid = found ? Number(found[1]) : Number.NaN;
    return Number.isSafeInteger(pid) && pid > 1 ? pid : undefined;
  };
}

/**
 * Waits, at most `maxMs`, until the group led by `pgid` has nothing running: with the sandbox's init known, until
 * that init is gone or a zombie (SIGKILL to the group again each round); otherwise the generic wait over /proc.
 */
export async function waitForGroup(pgid: number, initPid: number | undefined, maxMs: number): Promise<void> {
  if (initPid === undefined) return waitForGroupToDie(pgid, maxMs);
  const deadline = Date.now() + maxMs;
  let pause = 1;
  while (liveInGroup(initPid, pgid) && Date.now() < deadline) {
    signalGroup(pgid, 'SIGKILL');
    await sleep(pause);
    pause = Math.min(5, pause * 2);
  }
}
