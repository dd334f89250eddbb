import { readlinkSync } from 'node:fs';

/**
 * Asks the kernel which path an open descriptor really refers to (Linux `/proc/self/fd`), so a check made on a path
 * can be confirmed against the object actually opened. Returns undefined where the platform cannot tell. The
 * readlink is synchronous: procfs answers from kernel memory in microseconds, less than a thread-pool round trip.
 */
export async function descriptorPath(fd: number): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Where the descriptor really points when that differs from `expected` (undefined when it matches or the platform
 * cannot tell), so a caller that created the file can remove exactly what it created.
 */
export async function descriptorMoved(fd: number, expected: string): Promise<string | undefined> {
  const actual = await descriptorPath(fd);
  return actual !== undefined && actual !== expected ? actual : undefined;
}

/** {@link descriptorMoved} for synchronous callers: true when the descriptor is known to be somewhere else. */
export function descriptorMovedSync(fd: number, expected: string): boolean {
  if (process.platform !== 'linux') return false;
  let actual: string;
  try {
    actual = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return false;
  }
  return actual !== expected;
}
