// Signals sent to a whole process group, so children and grandchildren of the command are stopped with it.

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

/** True while any process is left in the group led by `pid`. */
export function groupAlive(pid: number | undefined): boolean {
  return signalGroup(pid, 0);
}
