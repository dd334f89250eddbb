import { closeSync, mkdirSync, openSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, TEST_BASE_ENV, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunOptions } from './run-options.js';
import { runProcess } from './run-process.js';

let tree: TempWorkspace;
beforeEach(() => {
  tree = makeWorkspace();
});
afterEach(() => tree.cleanup());

const inTree = (extra: RunOptions = {}): RunOptions => ({ workspaceRoot: tree.root, baseEnv: TEST_BASE_ENV, ...extra });

describe('runProcess: exit status and output', () => {
  it('returns stdout, stderr and the exit code of a failing command as a successful run', async () => {
    const result = await runProcess(['sh', '-c', 'echo out; echo err >&2; exit 7'], inTree());
    expect(result).toMatchObject({
      success: true,
      stdout: 'out\n',
      stderr: 'err\n',
      return_code: 7,
      signal: null,
      timed_out: false,
      aborted: false,
      stdout_truncated: false,
    });
  });

  it('writes stderr to a given descriptor instead of a pipe, and stdout still streams', async () => {
    const logPath = join(tree.root, 'stderr.log');
    const fd = openSync(logPath, 'w+');
    const seen: string[] = [];
    try {
      const result = await runProcess(['sh', '-c', 'echo out; echo one >&2; echo two >&2; exit 3'], {
        ...inTree(),
        stderrFd: fd,
        onStderr: (chunk) => seen.push(chunk.toString()),
      });
      expect(result).toMatchObject({ success: true, stdout: 'out\n', stderr: '', return_code: 3 });
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(logPath, 'utf8')).toBe('one\ntwo\n');
    expect(seen).toEqual([]);
  });

  it('passes arguments verbatim, with no shell in between', async () => {
    const args = ['a b', '$HOME', '`id`', '*', ';', '"q"', ''];
    const result = await runProcess(['printf', '[%s]', ...args], inTree());
    expect(result).toMatchObject({ success: true, stdout: args.map((a) => `[${a}]`).join('') });
  });

  it('gives the child an empty stdin so readers return at once', async () => {
    const result = await runProcess(['cat'], inTree({ timeoutMs: 20_000 }));
    expect(result).toMatchObject({ success: true, stdout: '', return_code: 0, timed_out: false });
  }, 10_000);

  it('returns every documented field, with the timeout applied and a duration', async () => {
    const result = await runProcess(['true'], inTree());
    expect(Object.keys(result).sort()).toEqual(
      [
        'success',
        'stdout',
        'stderr',
        'return_code',
        'signal',
        'timed_out',
        'aborted',
        'stdout_truncated',
        'stderr_truncated',
        'stdout_bytes',
        'stderr_bytes',
        'stdout_binary',
        'stderr_binary',
        'duration_ms',
        'timeout_ms',
      ].sort(),
    );
    expect(result).toMatchObject({ success: true, return_code: 0, timeout_ms: 30_000 });
    if (result.success) expect(result.duration_ms).toBeGreaterThanOrEqual(0);
    expect(await runProcess(['true'], inTree({ timeoutMs: 1234.2 }))).toMatchObject({ timeout_ms: 1235 });
    expect(await runProcess(['true'], inTree({ timeoutMs: 0 }))).toMatchObject({ timeout_ms: 30_000 });
  });

  it('runs the program as the leader of its own process group and session', async () => {
    // Fields 5 and 6 of /proc/PID/stat are the process group and the session; both equal the pid for a leader.
    const result = await runProcess(['sh', '-c', 'echo $$; cut -d" " -f5,6 /proc/$$/stat'], inTree());
    if (!result.success) throw new Error(result.error);
    const [pid, ids] = result.stdout.trim().split('\n');
    expect(ids).toBe(`${pid} ${pid}`);
    expect(Number(pid)).not.toBe(process.pid);
  });

  it('reports the signal that ended the process', async () => {
    const result = await runProcess(['sh', '-c', 'kill -9 $$'], inTree());
    expect(result).toMatchObject({ success: true, return_code: null, signal: 'SIGKILL' });
  });
});

describe('runProcess: argv and program lookup', () => {
  it.each([[[]], [['']], [['echo', 'a\0b']], [[1 as unknown as string]]])('refuses argv %j', async (argv) => {
    expect(await runProcess(argv, inTree())).toMatchObject({ success: false, error_code: 'invalid_argv' });
  });

  it('reports a missing program before spawning', async () => {
    const result = await runProcess(['definitely-not-a-program-bk'], inTree());
    expect(result).toMatchObject({ success: false, error_code: 'command_not_found' });
  });

  it('treats shell builtins, directories and non-executable files as not found', async () => {
    tree.write('plain.sh', 'echo hi\n', 0o644);
    mkdirSync(join(tree.root, 'dir'));
    for (const name of ['cd', './dir', './plain.sh', 'dir/']) {
      expect(await runProcess([name], inTree())).toMatchObject({ success: false, error_code: 'command_not_found' });
    }
  });

  it('runs a path relative to cwd', async () => {
    tree.write('bin/hello.sh', '#!/bin/sh\necho "hello $1"\n', 0o755);
    const result = await runProcess(['./hello.sh', 'you'], inTree({ cwd: 'bin' }));
    expect(result).toMatchObject({ success: true, stdout: 'hello you\n' });
  });

  it('ignores relative PATH entries, so a planted program cannot shadow a system one', async () => {
    tree.write('ls', '#!/bin/sh\necho PLANTED\n', 0o755);
    const env = { PATH: `.:${TEST_BASE_ENV.PATH}` };
    const result = await runProcess(['ls'], inTree({ baseEnv: env }));
    expect(result).toMatchObject({ success: true, return_code: 0 });
    if (result.success) expect(result.stdout).not.toContain('PLANTED');
  });
});

describe('runProcess: working directory', () => {
  it('defaults to the workspace root and resolves relative cwd from it', async () => {
    mkdirSync(join(tree.root, 'sub'));
    expect(await runProcess(['pwd', '-P'], inTree())).toMatchObject({ stdout: `${tree.root}\n` });
    expect(await runProcess(['pwd', '-P'], inTree({ cwd: 'sub' }))).toMatchObject({ stdout: `${tree.root}/sub\n` });
    expect(await runProcess(['pwd', '-P'], inTree({ cwd: join(tree.root, 'sub') }))).toMatchObject({
      stdout: `${tree.root}/sub\n`,
    });
  });

  it.each([
    ['a missing directory', 'nope', 'not_found'],
    ['a file', 'file.txt', 'not_a_directory'],
  ])('refuses %s as cwd with the workspace code', async (_label, cwd, code) => {
    tree.write('file.txt', 'x');
    expect(await runProcess(['pwd'], inTree({ cwd }))).toMatchObject({ success: false, error_code: code });
  });

  it('refuses cwd outside the workspace, including a sibling sharing its prefix and missing outside paths', async () => {
    for (const cwd of [
      '..',
      '../ws-evil',
      tree.outside,
      `${tree.root}-evil`,
      '/',
      '/tmp',
      '../missing-outside',
      'a/../../ws-evil',
    ]) {
      const result = await runProcess(['pwd'], inTree({ cwd }));
      expect(result, cwd).toMatchObject({ success: false, error_code: 'outside_workspace' });
    }
  });

  it('refuses a symlinked directory inside the workspace that leads out, without naming its target', async () => {
    symlinkSync(tree.outside, join(tree.root, 'escape'));
    for (const cwd of ['escape', 'escape/.', 'escape/dir']) {
      const result = await runProcess(['pwd'], inTree({ cwd }));
      expect(result, cwd).toMatchObject({ success: false });
      expect(['symlink_rejected', 'outside_workspace']).toContain((result as { error_code: string }).error_code);
      if (!result.success) expect(result.error).not.toContain('ws-evil');
    }
  });

  it('accepts a symlinked intermediate directory that stays inside, but not a symlinked final component', async () => {
    mkdirSync(join(tree.root, 'real', 'deeper'), { recursive: true });
    symlinkSync(join(tree.root, 'real'), join(tree.root, 'alias'));
    expect(await runProcess(['pwd', '-P'], inTree({ cwd: 'alias/deeper' }))).toMatchObject({
      stdout: `${tree.root}/real/deeper\n`,
    });
    expect(await runProcess(['pwd', '-P'], inTree({ cwd: 'alias' }))).toMatchObject({ error_code: 'symlink_rejected' });
  });

  it('reports a missing workspace root', async () => {
    const result = await runProcess(['pwd'], { workspaceRoot: join(tree.root, 'gone'), baseEnv: TEST_BASE_ENV });
    expect(result).toMatchObject({ success: false, error_code: 'invalid_cwd' });
  });
});

describe('runProcess: environment', () => {
  const base = {
    ...TEST_BASE_ENV,
    LANG: 'C.UTF-8',
    FOO_TOKEN: 'canary-token',
    GITHUB_TOKEN: 'canary-gh',
    AWS_SECRET_ACCESS_KEY: 'canary-aws',
    OPENAI_API_KEY: 'canary-openai',
    DB_PASSWORD: 'canary-db',
    UNLISTED: 'canary-unlisted',
    LC_SNEAKY: '-----BEGIN OPENSSH PRIVATE KEY----- canary-value',
  };

  it('passes only allow-listed, non-secret variables plus non-interactive defaults', async () => {
    const result = await runProcess(['env'], inTree({ baseEnv: base }));
    if (!result.success) throw new Error(result.error);
    expect(result.stdout).not.toContain('canary');
    expect(result.stdout).toContain('LANG=C.UTF-8\n');
    for (const line of ['PAGER=cat', 'GIT_PAGER=cat', 'GIT_TERMINAL_PROMPT=0', 'TERM=dumb']) {
      expect(result.stdout).toContain(`${line}\n`);
    }
  });

  it('still drops secrets when everything is inherited, and keeps explicit variables', async () => {
    const result = await runProcess(['env'], inTree({ baseEnv: base, inheritEnv: ['*'], env: { MY_SETTING: 'on' } }));
    if (!result.success) throw new Error(result.error);
    expect(result.stdout).toContain('UNLISTED=canary-unlisted\n');
    expect(result.stdout).toContain('MY_SETTING=on\n');
    expect(result.stdout.replace('UNLISTED=canary-unlisted', '')).not.toContain('canary');
  });
});
