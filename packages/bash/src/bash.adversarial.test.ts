// Adversarial cases for the bash tool: shell syntax where a shell would act on it, quoting that makes it literal,
// argv gadgets (documented, not prevented), cwd refusals, and lifecycle. Each case checks nothing outside changed,
// no outside or protected byte appears, and the next call works.
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BashCallOptions } from './bash-options.js';
import { handleBash } from './handle-bash.js';
import type { BashInput, BashResponse, BashResult } from './schema.js';

const CANARY = 'OUTSIDE-SECRET-CANARY';
const PROTECTED = 'PROTECTED-BASH-CANARY';

let ws: TempWorkspace;
let before: string;

const snapshot = snapshotTree;

beforeEach(() => {
  ws = makeWorkspace({ 'letters.txt': 'a\nb\nc\n', 'sub/inner.txt': 'inner\n', '.env.d/x.txt': PROTECTED });
  symlinkSync(ws.outside, ws.path('out'));
  symlinkSync(ws.path('sub'), ws.path('in-link'));
  execFileSync('mkfifo', [ws.path('fifo')]);
  before = snapshot(ws.outside);
});
afterEach(() => ws.cleanup());

const run = (request: unknown, extra: Partial<BashCallOptions> = {}) =>
  handleBash(request as BashInput, {
    workspaceRoot: ws.root,
    baseEnv: { PATH: '/usr/local/bin:/usr/bin:/bin' },
    limits: { killGraceMs: 200, drainMs: 50 },
    ...extra,
  });

async function guarantees(response: BashResponse, input?: string): Promise<void> {
  expect(snapshot(ws.outside)).toBe(before);
  let text = JSON.stringify(response);
  if (input) text = text.split(JSON.stringify(input).slice(1, -1)).join('<input>');
  expect(text).not.toContain(CANARY);
  expect(text).not.toContain(PROTECTED);
  expect(text).not.toContain('ws-evil');
  expect(await run({ command: 'echo still-alive' })).toMatchObject({ stdout: 'still-alive\n', return_code: 0 });
}

function ran(response: BashResponse): BashResult {
  if (!response.success || !('stdout' in response)) {
    throw new Error(`expected the command to run, got ${JSON.stringify(response)}`);
  }
  return response;
}

// Each command below would, through a shell, read the outside canary or change something outside.

describe('shell syntax is refused where a shell would act on it', () => {
  const attacks = (o: string) => [
    `cat letters.txt; cat ${o}/secret.txt`,
    `cat letters.txt && cat ${o}/secret.txt`,
    `false || cat ${o}/secret.txt`,
    `cat ${o}/secret.txt | head`,
    `cat ${o}/secret.txt |& head`,
    `echo pwned > ${o}/secret.txt`,
    `echo pwned >> ${o}/secret.txt`,
    `echo pwned >| ${o}/secret.txt`,
    `echo pwned &> ${o}/new.txt`,
    `echo pwned 2>&1 > ${o}/new.txt`,
    `cat < ${o}/secret.txt`,
    `cat <<< "$(cat ${o}/secret.txt)"`,
    'cat <<EOF',
    `cat <(cat ${o}/secret.txt)`,
    `echo $(cat ${o}/secret.txt)`,
    `echo "$(cat ${o}/secret.txt)"`,
    `echo \`cat ${o}/secret.txt\``,
    `echo "\`cat ${o}/secret.txt\`"`,
    `echo $((1+1))`,
    `touch ${o}/new.txt &`,
    `(touch ${o}/new.txt)`,
    `{ touch ${o}/new.txt; }`,
    `echo a\ntouch ${o}/new.txt`,
    `echo a\rtouch ${o}/new.txt`,
    `echo # \ntouch ${o}/new.txt`,
    'echo $HOME',
    `echo $\{HOME}`,
    'echo "$HOME"',
    'echo $1',
    'echo $?',
    'echo $$',
    `echo $'\\x41'`,
    `touch ${o}/{a,b}`,
    `touch ${o}/f{1..3}`,
    `X=1 touch ${o}/new.txt`,
    `PATH=/tmp ls`,
    'eval "touch x; cat y"; ls',
  ];
  it('every operator in every position', async () => {
    for (const command of attacks(ws.outside)) {
      const out = await run({ command });
      expect(out, command).toMatchObject({ success: false });
      expect(['shell_operator', 'malformed_command'], command).toContain((out as { error_code: string }).error_code);
      await guarantees(out, command);
    }
  }, 60_000);
});

describe('quoted and escaped operators are literal arguments', () => {
  const literal: Array<[string, string]> = [
    [`echo 'a;b' "c&&d" 'e|f' "g>h" 'i<j' "(k)"`, 'a;b c&&d e|f g>h i<j (k)\n'],
    ['echo a\\;b a\\|b a\\>b a\\&b a\\(b\\)', 'a;b a|b a>b a&b a(b)\n'],
    [`echo '$(id)' '\`id\`' '$HOME' '\${x}'`, `$(id) \`id\` $HOME $\{x}\n`],
    ['echo "\\$HOME" \\$HOME', '$HOME $HOME\n'],
    [`echo "a'b" 'c"d'`, `a'b c"d\n`],
    ['echo "2>&1" \'&>\' "|&"', '2>&1 &> |&\n'],
    [`echo '{a,b}' "{1..3}" \\{x,y\\}`, '{a,b} {1..3} {x,y}\n'],
    ['echo a；b ＆＆ ｜', 'a；b ＆＆ ｜\n'],
    ['echo "line1\nline2"', 'line1\nline2\n'],
    ['echo # comment only', '\n'],
    ['echo a#b', 'a#b\n'],
    ['echo ~ ~/x', '~ ~/x\n'],
    ['echo *.txt ?', '*.txt ?\n'],
    ['echo $ a$ $%', '$ a$ $%\n'],
    ['echo ""', '\n'],
  ];
  it.each(literal)('%s', async (command, stdout) => {
    const out = await run({ command });
    expect(ran(out).stdout).toBe(stdout);
    await guarantees(out, command);
  });

  it('an escaped operator in find -exec reaches find as a word', async () => {
    const out = ran(await run({ command: 'find . -name letters.txt -exec echo found {} \\;' }));
    expect(out.stdout).toBe('found ./letters.txt\n');
    await guarantees(out);
  });
});

describe('malformed and empty input', () => {
  const bad: Array<[unknown, string]> = [
    [{ command: '' }, 'invalid_request'],
    [{ command: '   ' }, 'empty_command'],
    [{ command: '\t \t' }, 'empty_command'],
    [{ command: '# only a comment' }, 'empty_command'],
    [{ command: 'echo "unterminated' }, 'malformed_command'],
    [{ command: "echo 'unterminated" }, 'malformed_command'],
    [{ command: 'echo trailing\\' }, 'malformed_command'],
    [{ command: 'echo a\0b' }, 'malformed_command'],
    [{ command: "''" }, 'invalid_argv'],
    [{ command: 'x'.repeat(40_000) }, 'command_too_long'],
    [{ command: 'echo hi', allow_shell: true }, 'invalid_request'],
    [{ command: 42 }, 'invalid_request'],
    [{ command: 'echo hi', cwd: '' }, 'invalid_request'],
    [{ command: 'echo hi', timeout: 'soon' }, 'invalid_request'],
    [null, 'invalid_request'],
    [{ command: 'exec ls' }, 'command_not_found'],
    [{ command: 'eval ls' }, 'command_not_found'],
    [{ command: 'cd /' }, 'command_not_found'],
    [{ command: 'source .env' }, 'command_not_found'],
    [{ command: 'no-such-program-xyz' }, 'command_not_found'],
    [{ command: './letters.txt' }, 'command_not_found'],
  ];
  it.each(bad)('%j → %s', async (request, code) => {
    const out = await run(request);
    expect(out).toMatchObject({ success: false, error_code: code });
    await guarantees(out);
  });

  it('a missing workspace root is a typed failure, not a throw', async () => {
    const out = await handleBash({ command: 'echo hi' }, { workspaceRoot: join(ws.root, 'gone') });
    expect(out).toMatchObject({ success: false, error_code: 'invalid_cwd' });
    await guarantees(out);
  });
});

describe('cwd refusals carry the workspace codes', () => {
  const table: Array<[string, string]> = [
    ['..', 'outside_workspace'],
    ['../ws-evil', 'outside_workspace'],
    ['/proc/self/cwd', 'outside_workspace'],
    ['/proc/self/root', 'outside_workspace'],
    ['/dev', 'outside_workspace'],
    ['/', 'outside_workspace'],
    ['out', 'symlink_rejected'],
    ['out/', 'symlink_rejected'],
    ['in-link', 'symlink_rejected'],
    ['.env.d', 'protected_path'],
    ['.ENV.D', 'protected_path'],
    ['fifo', 'special_file'],
    ['letters.txt', 'not_a_directory'],
    ['missing', 'not_found'],
  ];
  it.each(table)('cwd %s → %s', async (cwd, code) => {
    const out = await run({ command: 'cat x.txt', cwd });
    expect(out).toMatchObject({ success: false, error_code: code });
    await guarantees(out, cwd);
  });

  it('a cwd through an inside link runs in the real directory', async () => {
    ws.write('sub/d/keep.txt', 'x');
    expect(ran(await run({ command: 'pwd -P', cwd: 'in-link/d' })).stdout).toBe(`${ws.path('sub/d')}\n`);
    expect(await run({ command: 'pwd', cwd: 'in-link/' })).toMatchObject({ error_code: 'symlink_rejected' });
  });
});

describe('argv gadgets are documented, not prevented', () => {
  it('the README and the description say interpreters and exec options can do anything', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    for (const gadget of ['find -exec', 'git -c core.pager', 'python -c', 'awk', 'sh -c', 'setsid', 'nohup']) {
      expect(readme, gadget).toContain(gadget);
    }
    expect(readme).toMatch(/not a sandbox/i);
  });

  it('sh -c "a; b" is an argument, and runs (the documented gadget)', async () => {
    const out = ran(await run({ command: 'sh -c "echo one; echo two"' }));
    expect(out.stdout).toBe('one\ntwo\n');
    await guarantees(out);
  });

  it('env assignments go through env, and secrets from the host never reach the child', async () => {
    const out = ran(
      await run(
        { command: 'env' },
        { baseEnv: { PATH: '/usr/bin:/bin', GITHUB_TOKEN: 'ghp_secretsecretsecretsecret1234', API_KEY: 'k' } },
      ),
    );
    expect(out.stdout).not.toContain('ghp_');
    expect(out.stdout).not.toContain('API_KEY');
    expect(out.stdout).toContain('GIT_TERMINAL_PROMPT=0');
    expect(ran(await run({ command: 'env FOO=bar printenv FOO' })).stdout).toBe('bar\n');
  });
});

describe('lifecycle', () => {
  it('a background child, a timeout and a FIFO read all end the call with nothing left behind', async () => {
    const cases = [
      { command: 'sh -c "sleep 47.31 & echo started"' },
      { command: 'sleep 47.31', timeout: 300 },
      { command: 'cat fifo', timeout: 300 },
      { command: 'sh -c "trap \\"\\" TERM; sleep 47.31"', timeout: 300 },
    ];
    for (const request of cases) {
      const out = ran(await run(request));
      expect(out.duration_ms, request.command).toBeLessThan(30_000);
      await guarantees(out);
    }
    const leftovers = execFileSync('ps', ['-eo', 'args']).toString().split('\n');
    expect(leftovers.filter((line) => line.includes('sleep 47.31'))).toEqual([]);
  }, 30_000);

  it('timeout 0 and negative mean the default, never "no limit"', async () => {
    for (const timeout of [0, -1, -1e9]) {
      const out = ran(await run({ command: 'true', timeout }));
      expect(out.timeout_ms).toBe(30_000);
      expect(out.note).toBeDefined();
    }
  });

  it('binary output is flagged with a note', async () => {
    const out = ran(await run({ command: 'head -c 64 /dev/zero' }));
    expect(out.note).toContain('binary');
  });
});
