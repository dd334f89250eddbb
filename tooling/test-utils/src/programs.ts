import { execFileSync } from 'node:child_process';

/**
 * True when `program` is not on PATH (tests that need it are then skipped), and says so on stderr naming what is
 * skipped, so a machine without a language server or tool shows why its tests did not run.
 */
export function notInstalled(program: string, skipped: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return false;
  } catch {
    console.warn(`${program} is not installed; ${skipped} skipped.`);
    return true;
  }
}
