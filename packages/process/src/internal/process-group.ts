// Signals sent to a whole process group, so children and grandchildren of the command are stopped with it.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Sends `signal` to the group led by `pid`; false when the group no longer exists (or was never ours to signal). */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals | 0): boolean {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 1) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * True while a process of the group is still running. Killed processes linger as zombies until their parent (often
 * init, for orphans) reaps them; on Linux those are read from /proc and not counted, elsewhere any member counts.
 */
export function groupHasLiveMembers(pgid: number | undefined): boolean {
  if (pgid === undefined || !signalGroup(pgid, 0)) return false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (/^\d+$/.test(entry) && liveInGroup(entry, pgid)) return true;
  }
  return false;
}

/**
 * True while process `pid` runs (is neither a zombie nor dead) as a member of group `pgid`, read from
 * `/proc/<pid>/stat` (Linux); false when it has ended or its pid now belongs to a process of another group.
 */
export function liveInGroup(pid: number | string, pgid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return false; // the process ended while we looked
  }
  // Fields after the command name (which may contain spaces and parentheses): state, ppid, pgrp, ...
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X';
}

/** Waits, at most `maxMs`, until nothing in the group is running any more. */
export async function waitForGroupToDie(pgid: number | undefined, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (groupHasLiveMembers(pgid) && Date.now() < deadline) {
    signalGroup(pgid, 'SIGKILL');
    await sleep(5);
  }
}
