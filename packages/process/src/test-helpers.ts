// Shared fixtures for this package's tests (excluded from the build by the `test-*` pattern).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A real temp tree: `root` is the workspace, `outside` a sibling whose name shares the root's prefix. */
export interface TempTree {
  root: string;
  outside: string;
  write(relative: string, content: string | Uint8Array, mode?: number): string;
  cleanup(): void;
}

/** Creates `<tmp>/bkp-XXXX/ws` and `<tmp>/bkp-XXXX/ws-evil`, like `makeWorkspace` from test-utils. */
export function makeTree(): TempTree {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'bkp-')));
  const root = join(base, 'ws');
  const outside = join(base, 'ws-evil');
  mkdirSync(root);
  mkdirSync(outside);
  return {
    root,
    outside,
    write(relative, content, mode) {
      const target = join(root, relative);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content, mode === undefined ? undefined : { mode });
      return target;
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** True while any process is left in the group `pgid`; `kill(-pgid, 0)` fails with ESRCH once it is empty. */
export function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** Pids of group members that are not zombies, read from /proc (Linux): processes that could still do something. */
export function runningMembers(pgid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Resolves once `kill(-pgid, 0)` reports ESRCH; zombies of orphans wait for init to reap them, which can be slow. */
export async function groupDisappears(pgid: number): Promise<boolean> {
  for (let i = 0; i < 500; i++) {
    if (!groupExists(pgid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/** A minimal environment for tests that must not depend on the host's variables. */
export const TEST_BASE_ENV: Record<string, string> = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/nonexistent' };
