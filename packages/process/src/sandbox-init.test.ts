import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { waitForGroup, watchInitReport } from './internal/sandbox-init.js';

/** The state letter of a process, or undefined once it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

describe.skipIf(process.platform !== 'linux')('the sandbox init watch', () => {
  it('reads the init pid from the report on the first extra pipe, once the report has ended', async () => {
    const child = spawn(
      process.execPath,
      ['-e', 'require("fs").writeSync(4, \'{\\n    "child-pid": 4242,\\n    "pid-namespace": 1\\n}\\n\')'],
      { stdio: ['ignore', 'ignore', 'ignore', 'ignore', 'pipe'] },
    );
    const initPid = watchInitReport(child, [4]);
    await new Promise((resolve) => child.once('close', resolve));
    expect(initPid()).toBe(4242);
  });

  it('waits until the named init is gone, killing its group, and leaves nothing of it running', async () => {
    // A group leader (sh) with a child in its group, standing in for bwrap and the namespace's init.
    const leader = spawn('/bin/sh', ['-c', 'sleep 30 & echo $!; wait'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const initPid = await new Promise<number>((resolve) =>
      leader.stdout?.once('data', (chunk) => resolve(Number(String(chunk).trim()))),
    );
    expect(stateOf(initPid)).toMatch(/^[RS]$/);
    await waitForGroup(leader.pid as number, initPid, 5_000);
    expect(['Z', 'X', undefined]).toContain(stateOf(initPid));
  });
});
