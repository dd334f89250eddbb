import { groupDisappears, runningMembers, TEST_BASE_ENV } from '@bough/test-utils';
import { describe, expect, it } from 'vitest';
import { runProcess } from './run-process.js';

// Each command prints its own pid first: with `detached: true` that pid is also its process-group id.
async function expectGroupGone(stdout: string): Promise<void> {
  const pgid = leaderPid(stdout);
  expect(runningMembers(pgid)).toEqual([]); // nothing left running the moment the call returns
  expect(await groupDisappears(pgid)).toBe(true); // and kill(-pgid, 0) ends in ESRCH once zombies are reaped
}

function leaderPid(stdout: string): number {
  const pid = Number.parseInt(stdout.split('\n')[0] ?? '', 10);
  expect(Number.isInteger(pid) && pid > 1).toBe(true);
  return pid;
}

const base = { baseEnv: TEST_BASE_ENV };

describe('process lifecycle', () => {
  it('stops a command at its timeout, keeps partial output, and leaves no process in its group', async () => {
    const result = await runProcess(['sh', '-c', 'echo $$; echo partial; sleep 10'], { ...base, timeoutMs: 300 });
    if (!result.success) throw new Error(result.error);
    expect(result).toMatchObject({ timed_out: true, aborted: false, timeout_ms: 300, return_code: null });
    expect(result.stdout).toContain('partial');
    await expectGroupGone(result.stdout);
  }, 8_000);

  it('kills a child that ignores SIGTERM once the grace period is over', async () => {
    const command = 'trap "" TERM; echo $$; sleep 30; echo survived';
    const result = await runProcess(['sh', '-c', command], { ...base, timeoutMs: 200, killGraceMs: 300 });
    if (!result.success) throw new Error(result.error);
    expect(result).toMatchObject({ timed_out: true, signal: 'SIGKILL' });
    expect(result.stdout).not.toContain('survived');
    await expectGroupGone(result.stdout);
  }, 10_000);

  it('returns promptly when a backgrounded grandchild holds the pipes, and kills that grandchild', async () => {
    const result = await runProcess(['sh', '-c', 'echo $$; sleep 30 & echo started'], base);
    if (!result.success) throw new Error(result.error);
    expect(result).toMatchObject({ timed_out: false, return_code: 0 });
    expect(result.stdout).toContain('started');
    await expectGroupGone(result.stdout);
  }, 10_000);

  it('kills a grandchild left running in the group even when it let go of the pipes', async () => {
    const command = 'echo $$; sleep 30 >/dev/null 2>&1 </dev/null & echo done';
    const result = await runProcess(['sh', '-c', command], base);
    if (!result.success) throw new Error(result.error);
    await expectGroupGone(result.stdout);
  }, 10_000);

  it('stops on abort with what was captured so far', async () => {
    const controller = new AbortController();
    const result = await runProcess(['sh', '-c', 'echo $$; echo ready; sleep 30'], {
      ...base,
      signal: controller.signal,
      onStdout: (chunk) => {
        if (chunk.toString().includes('ready')) controller.abort();
      },
    });
    if (!result.success) throw new Error(result.error);
    expect(result).toMatchObject({ aborted: true, timed_out: false });
    expect(result.stdout).toContain('ready');
    await expectGroupGone(result.stdout);
  }, 10_000);

  it('runs nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runProcess(['sh', '-c', 'echo ran'], { ...base, signal: controller.signal });
    expect(result).toMatchObject({ success: false, error_code: 'aborted' });
  });

  it('survives an observer that throws', async () => {
    const result = await runProcess(['echo', 'hi'], {
      ...base,
      onStdout: () => {
        throw new Error('observer bug');
      },
    });
    expect(result).toMatchObject({ success: true, stdout: 'hi\n' });
  });

  it('caps a 256 MiB flood per stream without holding it in memory', async () => {
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    let seen = 0;
    // Garbage chunks pile up until V8 collects (it lets about 64 MiB of external memory accumulate first, so a 64 MiB
    // flood measured just above 64 MiB once on Node 24): flood four times that and require less than half of it.
    const result = await runProcess(['head', '-c', '268435456', '/dev/zero'], {
      ...base,
      timeoutMs: 25_000,
      onStdout: (chunk) => {
        seen += chunk.length;
        if (seen % (1 << 20) < chunk.length) peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      },
    });
    if (!result.success) throw new Error(result.error);
    expect(result).toMatchObject({
      timed_out: false,
      return_code: 0,
      stdout_truncated: true,
      stdout_bytes: 268_435_456,
      stdout_binary: true,
      stderr_truncated: false,
    });
    expect(result.stdout).toMatch(/\[\.\.\. 268335456 of 268435456 bytes of stdout left out here/);
    expect(Buffer.byteLength(result.stdout)).toBeLessThan(100_000 + 200);
    expect(peak - before).toBeLessThan(128 * 1024 * 1024);
  }, 28_000);

  it('caps stderr separately from stdout', async () => {
    const result = await runProcess(['sh', '-c', 'head -c 5000 /dev/zero | tr "\\0" e >&2; echo small'], {
      ...base,
      maxOutputBytes: 1000,
    });
    expect(result).toMatchObject({
      success: true,
      stdout: 'small\n',
      stdout_truncated: false,
      stderr_truncated: true,
      stderr_bytes: 5000,
    });
  });
});
