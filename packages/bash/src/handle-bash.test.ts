import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { clampTimeout } from '@bough/process';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BashCallOptions } from './bash-options.js';
import { handleBash } from './handle-bash.js';
import type { BashInput, BashResponse, BashResult } from './schema.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace({ 'letters.txt': 'a\nb\nc\n', 'sub/inner.txt': 'inner\n' });
});
afterEach(() => ws.cleanup());

const run = (request: unknown, extra: Partial<BashCallOptions> = {}) =>
  handleBash(request as BashInput, { workspaceRoot: ws.root, ...extra });

function ran(response: BashResponse): BashResult {
  if (!response.success || !('stdout' in response)) {
    throw new Error(`expected the command to run, got ${JSON.stringify(response)}`);
  }
  return response;
}

function refused(response: BashResponse, code: string): string {
  expect(response).toMatchObject({ success: false, error_code: code });
  return (response as { error: string }).error;
}

describe('running commands', () => {
  it('returns stdout, stderr, exit status and the applied timeout', async () => {
    const out = ran(await run({ command: 'echo hello' }));
    expect(out).toMatchObject({ stdout: 'hello\n', stderr: '', return_code: 0, timed_out: false, timeout_ms: 30_000 });
    expect(out.note).toBeUndefined();
  });

  it('reports a non-zero exit as a result, not a failure', async () => {
    const out = ran(await run({ command: "sh -c 'echo oops >&2; exit 3'" }));
    expect(out.return_code).toBe(3);
    expect(out.stderr).toBe('oops\n');
  });

  it('passes quoted shell metacharacters through literally', async () => {
    expect(ran(await run({ command: 'grep -E "a|b" letters.txt' })).stdout).toBe('a\nb\n');
    expect(ran(await run({ command: `echo 'x;y' "p&&q" 'r > s' "(t)" '$(id)' '\`id\`'` })).stdout).toBe(
      'x;y p&&q r > s (t) $(id) `id`\n',
    );
  });

  it('does not expand globs, variables or ~', async () => {
    expect(ran(await run({ command: "echo '~' \\*.txt" })).stdout).toBe('~ *.txt\n');
    const ls = ran(await run({ command: 'ls *.txt' }));
    expect(ls.return_code).not.toBe(0);
  });

  it('runs in a cwd inside the workspace', async () => {
    expect(ran(await run({ command: 'pwd', cwd: 'sub' })).stdout.trim()).toBe(join(ws.root, 'sub'));
    expect(ran(await run({ command: 'pwd', cwd: join(ws.root, 'sub') })).stdout.trim()).toBe(join(ws.root, 'sub'));
    expect(ran(await run({ command: 'pwd' })).stdout.trim()).toBe(ws.root);
  });
});

describe('refusals', () => {
  it.each([
    ['echo a | cat', 'head -n 20'],
    ['echo a > out.txt', '--output'],
    ['echo a >> out.txt', '--output'],
    ['cd sub && ls', 'cwd'],
    ['echo a; touch out.txt', 'one per call'],
    ['echo a || touch out.txt', 'one per call'],
    ['touch out.txt &', 'Background'],
    ['echo $(touch out.txt)', 'substitution'],
    ['echo `touch out.txt`', 'substitution'],
    ['echo "$(touch out.txt)"', 'substitution'],
    ['echo $HOME', 'variable'],
    ['cat < letters.txt', 'stdin'],
    ['echo a\ntouch out.txt', 'one per call'],
    ['X=1 touch out.txt', 'env X=value'],
  ])('refuses %j with advice (%s) and runs nothing', async (command, advice) => {
    const error = refused(await run({ command }), 'shell_operator');
    expect(error).toContain(advice);
    expect(existsSync(ws.path('out.txt'))).toBe(false);
  });

  it('every chaining refusal says to use cwd instead of cd and to run the commands one per call', async () => {
    for (const command of ['git status && git diff', 'cd sub && ls', 'ls; ls', 'make || make clean']) {
      const error = refused(await run({ command }), 'shell_operator');
      expect(error).toMatch(/cwd field/);
      expect(error).toMatch(/one per call/);
    }
  });

  it('refuses malformed and empty commands', async () => {
    refused(await run({ command: "echo 'open" }), 'malformed_command');
    refused(await run({ command: '   ' }), 'empty_command');
    refused(await run({ command: '' }), 'invalid_request');
  });

  it('refuses unknown fields such as allow_shell', async () => {
    const error = refused(await run({ command: 'echo a | cat', allow_shell: true }), 'invalid_request');
    expect(error).toContain('allow_shell');
  });

  it('refuses an over-long command before running it', async () => {
    refused(
      await run({ command: `echo ${'x'.repeat(200)}` }, { limits: { maxCommandLength: 100 } }),
      'command_too_long',
    );
  });

  it('reports a missing program', async () => {
    refused(await run({ command: 'no-such-program-bk-42' }), 'command_not_found');
  });

  it('keeps cwd inside the workspace and says why it refused', async () => {
    symlinkSync(ws.outside, ws.path('link-out'));
    ws.write('file.txt', 'x');
    const cases: [string, string][] = [
      ['..', 'outside_workspace'],
      ['../ws-evil', 'outside_workspace'],
      [ws.outside, 'outside_workspace'],
      ['/', 'outside_workspace'],
      ['link-out', 'symlink_rejected'],
      ['missing-dir', 'not_found'],
      ['file.txt', 'not_a_directory'],
    ];
    for (const [cwd, code] of cases) {
      const response = await run({ command: 'cat secret.txt', cwd });
      expect(response, cwd).toMatchObject({ success: false, error_code: code });
      expect(JSON.stringify(response)).not.toContain('OUTSIDE-SECRET-CANARY');
      if (cwd === 'link-out') expect(JSON.stringify(response)).not.toContain(ws.outside);
    }
  });

  it('refuses a cwd holding a NUL as an invalid path, without running anything', async () => {
    const error = refused(await run({ command: 'touch made.txt', cwd: 'sub\0x' }), 'invalid_path');
    expect(error).toMatch(/NUL/);
    expect(existsSync(ws.path('made.txt'))).toBe(false);
    expect(existsSync(ws.path('sub/made.txt'))).toBe(false);
  });

  it('runs nothing when the tool has no usable workspace root', async () => {
    for (const workspaceRoot of [undefined, '', join(ws.root, 'gone'), ws.path('letters.txt')]) {
      const response = await handleBash({ command: 'touch made.txt' }, { workspaceRoot } as unknown as BashCallOptions);
      expect(refused(response, 'invalid_cwd'), String(workspaceRoot)).toMatch(/workspace root/);
    }
    expect(existsSync(join(process.cwd(), 'made.txt'))).toBe(false);
    expect(existsSync(ws.path('made.txt'))).toBe(false);
  });
});

describe('timeouts', () => {
  it.each([0, -5])('treats timeout %d as the default and says so', async (timeout) => {
    const out = ran(await run({ command: 'true', timeout }));
    expect(out.timeout_ms).toBe(30_000);
    expect(out.note).toMatch(/not positive/);
  });

  it('lowers a huge timeout to the maximum and says so', async () => {
    const out = ran(await run({ command: 'true', timeout: 1e12 }));
    expect(out.timeout_ms).toBe(300_000);
    expect(out.note).toMatch(/maximum/);
  });

  it('honours configured limits through the same rule', async () => {
    const out = ran(await run({ command: 'true' }, { limits: { defaultTimeoutMs: 5_000, maxTimeoutMs: 8_000 } }));
    expect(out.timeout_ms).toBe(5_000);
    expect(ran(await run({ command: 'true', timeout: 9_000 }, { limits: { maxTimeoutMs: 8_000 } })).timeout_ms).toBe(
      8_000,
    );
  });

  it('applies exactly the shared clampTimeout rule, for every kind of value and configured limits', async () => {
    const requested = [undefined, 0, -1, 0.4, 1.5, 999, 30_000, 299_999.2, 300_000, 300_001, 1e15];
    for (const limits of [{}, { defaultTimeoutMs: 4_000, maxTimeoutMs: 10_000 }]) {
      for (const timeout of requested) {
        const out = ran(await run({ command: 'true', ...(timeout === undefined ? {} : { timeout }) }, { limits }));
        const rule = clampTimeout(timeout, {
          ...('defaultTimeoutMs' in limits ? { defaultMs: limits.defaultTimeoutMs, maxMs: limits.maxTimeoutMs } : {}),
        });
        expect({ timeout, applied: out.timeout_ms }).toEqual({ timeout, applied: rule.timeoutMs });
        // The rule's own sentence reaches the model whenever the request was changed.
        if (rule.note !== undefined) expect(out.note).toContain(rule.note);
        else expect(out.note ?? '').not.toMatch(/used the default|above the maximum/);
      }
    }
  }, 60_000);

  it('stops a command that runs too long and keeps what it printed', async () => {
    const out = ran(
      await run({ command: "sh -c 'echo before; sleep 60'", timeout: 500 }, { limits: { killGraceMs: 200 } }),
    );
    expect(out.timed_out).toBe(true);
    expect(out.stdout).toContain('before');
    expect(out.note).toContain('500 ms');
  }, 20_000);

  it('returns when the command exits even if a grandchild holds the pipes, and stops the grandchild', async () => {
    const out = ran(await run({ command: "sh -c 'sleep 60 & echo $!'", timeout: 60_000 }));
    expect(out.timed_out).toBe(false);
    const pid = Number(out.stdout.trim());
    expect(pid).toBeGreaterThan(1);
    let alive = true;
    for (let i = 0; i < 100 && alive; i++) {
      try {
        process.kill(pid, 0);
        await new Promise((resolve) => setTimeout(resolve, 50));
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false);
  }, 20_000);
});

describe('output and environment', () => {
  it('caps a flood, keeping head and tail', async () => {
    const out = ran(await run({ command: 'seq 1 200000' }, { limits: { maxOutputBytes: 4_000 } }));
    expect(out.stdout_truncated).toBe(true);
    expect(out.stdout.length).toBeLessThan(8_000);
    expect(out.stdout.startsWith('1\n2\n')).toBe(true);
    expect(out.stdout.trimEnd().endsWith('200000')).toBe(true);
  });

  it('does not hand secrets from the host environment to commands', async () => {
    const baseEnv = {
      PATH: process.env.PATH,
      HOME: ws.root,
      OPENAI_API_KEY: 'canary-openai',
      GITHUB_TOKEN: 'canary-gh',
      DB_PASSWORD: 'canary-db',
      AWS_SECRET_ACCESS_KEY: 'canary-aws',
      UNRELATED_VAR: 'canary-unlisted',
    };
    const out = ran(await run({ command: 'env' }, { baseEnv, env: { CHOSEN: 'by-caller' } }));
    expect(out.stdout).not.toContain('canary');
    expect(out.stdout).toContain('CHOSEN=by-caller');
    expect(out.stdout).toContain('GIT_TERMINAL_PROMPT=0');
    expect(out.stdout).toContain('PAGER=cat');
  });

  it('flags binary output as lossy', async () => {
    ws.write('blob.bin', Buffer.from([0x41, 0, 0xff, 0x42]));
    const out = ran(await run({ command: 'cat blob.bin' }));
    expect(out.note).toContain('binary');
  });

  it('gives commands an empty stdin', async () => {
    const out = ran(await run({ command: 'cat' }));
    expect(out).toMatchObject({ stdout: '', return_code: 0, timed_out: false });
  });

  it('stops the command when the call is cancelled', async () => {
    const controller = new AbortController();
    const pending = run({ command: 'sleep 60' }, { signal: controller.signal, limits: { killGraceMs: 200 } });
    setTimeout(() => controller.abort(), 200);
    const out = ran(await pending);
    expect(out.note).toContain('cancelled');
  }, 20_000);

  it('never writes outside the workspace through cwd tricks', async () => {
    mkdirSync(ws.path('deep/er'), { recursive: true });
    await run({ command: 'touch escaped.txt', cwd: 'deep/../../ws-evil' });
    expect(existsSync(join(ws.outside, 'escaped.txt'))).toBe(false);
  });
});
