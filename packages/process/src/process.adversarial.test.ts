// Adversarial cases for runProcess: cwd through the workspace gate, and process lifecycle (every call ends with no
// running member of its process group, whatever the program did).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, runningMembers, snapshotTree, TEST_BASE_ENV, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunOptions } from './run-options.js';
import { type RunProcessOutcome, runProcess } from './run-process.js';

const CANARY = 'OUTSIDE-PROCESS-CANARY';

let tree: TempWorkspace;
let before: string;

const snapshot = snapshotTree;

beforeEach(() => {
  tree = makeWorkspace();
  writeFileSync(join(tree.outside, 'secret.txt'), `${CANARY}\n`);
  mkdirSync(join(tree.outside, 'dir'));
  tree.write('sub/deep/x.txt', 'x');
  tree.write('.env.d/keep.txt', 'x');
  tree.write('certs.pem/keep.txt', 'x');
  tree.write('file.txt', 'x');
  symlinkSync(tree.outside, join(tree.root, 'out'));
  symlinkSync('../ws-evil', join(tree.root, 'rel-out'));
  symlinkSync(join(tree.root, 'missing'), join(tree.root, 'dangling'));
  symlinkSync('loop2', join(tree.root, 'loop1'));
  symlinkSync('loop1', join(tree.root, 'loop2'));
  symlinkSync(join(tree.root, 'sub'), join(tree.root, 'in-link'));
  execFileSync('mkfifo', [join(tree.root, 'fifo')]);
  before = snapshot(tree.outside);
});
afterEach(() => tree.cleanup());

const inTree = (extra: RunOptions = {}): RunOptions => ({
  workspaceRoot: tree.root,
  baseEnv: TEST_BASE_ENV,
  drainMs: 50,
  killGraceMs: 200,
  ...extra,
});

async function guarantees(result: RunProcessOutcome, input?: string): Promise<void> {
  expect(snapshot(tree.outside)).toBe(before);
  let text = JSON.stringify(result);
  if (input) text = text.split(JSON.stringify(input).slice(1, -1)).join('<input>');
  expect(text).not.toContain(CANARY);
  expect(text).not.toContain('ws-evil');
  const next = await runProcess(['true'], inTree());
  expect(next).toMatchObject({ success: true, return_code: 0 });
}

describe('cwd goes through the workspace gate', () => {
  const table: Array<[string, string]> = [
    ['..', 'outside_workspace'],
    ['../ws-evil', 'outside_workspace'],
    ['../ws-evil/dir', 'outside_workspace'],
    ['sub/../../ws-evil', 'outside_workspace'],
    ['/', 'outside_workspace'],
    ['/tmp', 'outside_workspace'],
    ['/proc/self/cwd', 'outside_workspace'],
    ['/proc/self/root', 'outside_workspace'],
    ['/dev/fd', 'outside_workspace'],
    ['/sys', 'outside_workspace'],
    ['out', 'symlink_rejected'],
    ['out/dir', 'outside_workspace'],
    ['rel-out', 'symlink_rejected'],
    ['rel-out/dir', 'outside_workspace'],
    ['dangling', 'symlink_rejected'],
    ['dangling/x', 'symlink_rejected'],
    ['loop1', 'symlink_rejected'],
    ['loop1/x', 'symlink_rejected'],
    ['in-link', 'symlink_rejected'],
    ['.env.d', 'protected_path'],
    ['.ENV.D', 'protected_path'],
    ['certs.pem', 'protected_path'],
    ['.ssh/id_rsa', 'protected_path'],
    ['fifo', 'special_file'],
    ['file.txt', 'not_a_directory'],
    ['nope', 'not_found'],
    ['a\0b', 'invalid_cwd'],
    ['', 'invalid_cwd'],
    ['x'.repeat(300), 'invalid_path'],
  ];
  for (const [cwd, code] of table) {
    it(`${JSON.stringify(cwd.slice(0, 40))} → ${code}`, async () => {
      const result = await runProcess(['pwd'], inTree({ cwd }));
      expect(result).toMatchObject({ success: false, error_code: code });
      await guarantees(result, cwd);
    });
  }

  it('a relative or absolute cwd inside, also through an inside link, runs there', async () => {
    for (const [cwd, where] of [
      ['sub/deep', 'sub/deep'],
      [join(tree.root, 'sub'), 'sub'],
      ['in-link/deep', 'sub/deep'],
      ['sub/../sub', 'sub'],
      ['.', ''],
    ]) {
      const result = await runProcess(['pwd', '-P'], inTree({ cwd: cwd as string }));
      expect(result, cwd).toMatchObject({ success: true, stdout: `${join(tree.root, where as string)}\n` });
    }
  });

  it('a missing workspace root is a typed failure, not a throw', async () => {
    const result = await runProcess(['pwd'], { workspaceRoot: join(tree.root, 'gone') });
    expect(result).toMatchObject({ success: false, error_code: 'invalid_cwd' });
  });
});

describe('lifecycle: nothing of the call keeps running', () => {
  /** Runs a shell script and returns its process group id (printed first) and the outcome. */
  async function runScript(script: string, extra: RunOptions = {}) {
    let pgid = 0;
    const result = await runProcess(['sh', '-c', `echo "PG $$"; ${script}`], {
      ...inTree(extra),
      onStdout: (chunk) => {
        const m = /PG (\d+)/.exec(chunk.toString());
        if (m && pgid === 0) pgid = Number(m[1]);
      },
    });
    return { result, pgid };
  }

  const scripts: Array<[string, string, RunOptions]> = [
    ['a background grandchild holding the pipes', 'sleep 30 & echo started', {}],
    ['a nohup grandchild', 'nohup sleep 30 >/dev/null 2>&1 & echo started', {}],
    ['a grandchild that ignores TERM', "trap '' TERM; (trap '' TERM; sleep 30) & sleep 30", { timeoutMs: 300 }],
    ['a timeout with children', 'sleep 30 & sleep 30 & sleep 30', { timeoutMs: 300 }],
    ['a child that closes stdout early and keeps running', 'exec >&-; sleep 30', { timeoutMs: 300 }],
    ['a child that closes both pipes and keeps running', 'exec >&- 2>&-; sleep 30', { timeoutMs: 300 }],
    ['a fork chain', 'sh -c "sh -c \\"sleep 30 &\\" &" ; sleep 0.1', {}],
    ['floods on both streams at once', 'yes out & yes err >&2 & sleep 0.5', {}],
    ['a child that kills itself with a signal', 'kill -9 $$', {}],
    ['a child waiting for stdin', 'cat; read x; echo done', {}],
  ];
  for (const [label, script, extra] of scripts) {
    it(`${label}: the call returns and the group is gone`, async () => {
      const { result, pgid } = await runScript(script, extra);
      expect(result.success).toBe(true);
      expect(pgid).toBeGreaterThan(1);
      expect(runningMembers(pgid)).toEqual([]);
      await guarantees(result);
    }, 20_000);
  }

  it('stdin is empty: cat returns at once with nothing', async () => {
    const result = await runProcess(['cat'], inTree());
    expect(result).toMatchObject({ success: true, stdout: '', return_code: 0, timed_out: false });
  });

  it('a flood on both streams stays within the cap per stream and marks the cut', async () => {
    const result = await runProcess(
      ['sh', '-c', 'head -c 3000000 /dev/zero | tr "\\0" a; head -c 3000000 /dev/zero | tr "\\0" b >&2'],
      inTree({ maxOutputBytes: 1000 }),
    );
    if (!result.success) throw new Error(result.error);
    expect(result.stdout.length).toBeLessThan(1200);
    expect(result.stderr.length).toBeLessThan(1200);
    expect(result).toMatchObject({
      stdout_truncated: true,
      stderr_truncated: true,
      stdout_bytes: 3_000_000,
      stderr_bytes: 3_000_000,
    });
    expect(result.stdout).toContain('left out here');
  });

  it('binary output is flagged and never throws', async () => {
    const result = await runProcess(['head', '-c', '4096', '/dev/urandom'], inTree());
    expect(result).toMatchObject({ success: true, stdout_bytes: 4096 });
  });

  it('a UTF-8 character is never split by the cut', async () => {
    const result = await runProcess(
      ['sh', '-c', 'i=0; while [ $i -lt 2000 ]; do printf "é€😀"; i=$((i+1)); done'],
      inTree({ maxOutputBytes: 101 }),
    );
    if (!result.success) throw new Error(result.error);
    expect(result.stdout).not.toContain('\uFFFD');
  });

  it('50 concurrent calls all return with their own output and leave nothing behind', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => runScript(`sleep 30 & echo call-${i}`)));
    for (const [i, { result, pgid }] of results.entries()) {
      expect(result).toMatchObject({ success: true });
      if (result.success) expect(result.stdout).toContain(`call-${i}\n`);
      expect(runningMembers(pgid)).toEqual([]);
    }
  }, 60_000);

  it('an abort stops the group and returns what was printed', async () => {
    const controller = new AbortController();
    const pending = runScript('echo before; sleep 30 & sleep 30', { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const { result, pgid } = await pending;
    expect(result).toMatchObject({ success: true, aborted: true });
    expect(runningMembers(pgid)).toEqual([]);
  });

  it('setsid escapes the group (documented limit); the call itself still returns', async () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    expect(readme).toMatch(/setsid/);
    expect(readme).toMatch(/not a sandbox/i);
  });
});
