import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HardenedGitOptions, hardenedGitArgv, runHardenedGit } from './internal/hardened-git.js';

let base: string;
let repo: string;
let marker: string;
const savedEnv = { ...process.env };

const plainGit = (...args: string[]) =>
  execFileSync('git', args, {
    cwd: repo,
    env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    encoding: 'utf8',
  });

// A program that leaves a mark when anything runs it.
function markingProgram(name: string): string {
  const path = join(base, name);
  writeFileSync(path, `#!/bin/sh\necho ${name} >> '${marker}'\n`);
  chmodSync(path, 0o755);
  return path;
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'bough-hardened-git-')));
  repo = join(base, 'repo');
  marker = join(base, 'ran');
  mkdirSync(repo);
  plainGit('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'a.txt'), 'one\n');
  plainGit('add', 'a.txt');
  plainGit('-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '-m', 'first');
});
afterEach(() => {
  process.env = { ...savedEnv };
  rmSync(base, { recursive: true, force: true });
});

const userRepo = (more: Partial<HardenedGitOptions> = {}): HardenedGitOptions => ({
  scope: { kind: 'user' },
  cwd: repo,
  timeoutMs: 20_000,
  maxOutputBytes: 65_536,
  config: ['user.name=t', 'user.email=t@t.invalid'],
  ...more,
});

describe('the hardened git runner', () => {
  it('runs no program the repository config names: hooks, fsmonitor, external diff, pager', async () => {
    const hooks = join(base, 'hooks');
    mkdirSync(hooks);
    for (const hook of ['pre-commit', 'post-commit', 'commit-msg']) {
      writeFileSync(join(hooks, hook), `#!/bin/sh\necho ${hook} >> '${marker}'\n`);
      chmodSync(join(hooks, hook), 0o755);
    }
    plainGit('config', 'core.hooksPath', hooks);
    plainGit('config', 'core.fsmonitor', markingProgram('fsmonitor'));
    plainGit('config', 'diff.external', markingProgram('external-diff'));
    plainGit('config', 'core.pager', markingProgram('pager'));
    writeFileSync(join(repo, 'a.txt'), 'two\n');
    const diff = await runHardenedGit(['diff'], userRepo());
    expect(diff).toMatchObject({ ok: true, finished: true });
    expect(diff.stdout).toContain('+two');
    expect(await runHardenedGit(['status', '--porcelain'], userRepo())).toMatchObject({ ok: true });
    expect(await runHardenedGit(['commit', '-q', '-am', 'second'], userRepo())).toMatchObject({ ok: true });
    expect(plainGit('log', '--format=%s')).toBe('second\nfirst\n');
    expect(existsSync(marker)).toBe(false);
  });

  it('passes no git variable of the host process to git', async () => {
    process.env.GIT_DIR = join(base, 'elsewhere');
    process.env.GIT_CONFIG_COUNT = '1';
    process.env.GIT_CONFIG_KEY_0 = 'core.hooksPath';
    process.env.GIT_CONFIG_VALUE_0 = join(base, 'hooks');
    const out = await runHardenedGit(['rev-parse', '--git-dir'], userRepo());
    expect(out).toMatchObject({ ok: true, stdout: '.git\n' });
    const hooks = await runHardenedGit(['config', '--get', 'core.hooksPath'], userRepo());
    expect(hooks.stdout).toBe('/dev/null\n');
  });

  it("reads the user's global config for their own repository, and none for a private one", async () => {
    const home = join(base, 'home');
    mkdirSync(home);
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = From Home\n');
    process.env.HOME = home;
    const user = await runHardenedGit(['config', '--get', 'user.name'], userRepo({ config: [] }));
    expect(user.stdout).toBe('From Home\n');
    const priv = await runHardenedGit(
      ['config', '--get', 'user.name'],
      userRepo({ config: [], scope: { kind: 'private', home: join(base, 'private') } }),
    );
    expect(priv).toMatchObject({ ok: false, finished: true, code: 1, stdout: '' });
  });

  it("keeps git's optional locks off unless asked, so the user's index is never written by a read", () => {
    expect(hardenedGitArgv(['status'], { scope: { kind: 'user' } })).toContain('--no-optional-locks');
    expect(hardenedGitArgv(['status'], { scope: { kind: 'user' }, optionalLocks: true })).not.toContain(
      '--no-optional-locks',
    );
  });

  it('keeps external diff programs and text converters off wherever the command shows diffs', () => {
    const argv = (args: string[]) => hardenedGitArgv(args, { scope: { kind: 'user' } });
    expect(argv(['stash', 'show', '-p']).slice(-4)).toEqual(['show', '--no-ext-diff', '--no-textconv', '-p']);
    expect(argv(['blame', 'a.txt']).slice(-3)).toEqual(['blame', '--no-textconv', 'a.txt']);
    for (const command of ['diff-index', 'diff-tree', 'format-patch', 'range-diff']) {
      expect(argv([command, 'HEAD']).slice(-4)).toEqual([command, '--no-ext-diff', '--no-textconv', 'HEAD']);
    }
  });

  it('says why a run did not finish, and keeps raw stdout whole when asked', async () => {
    const gone = await runHardenedGit(['status'], userRepo({ cwd: join(base, 'missing') }));
    expect(gone).toMatchObject({ ok: false, finished: false, code: null });
    expect(gone.message).not.toBe('');
    writeFileSync(join(repo, 'b.bin'), Buffer.from([0, 255, 10, 0]));
    const listed = await runHardenedGit(['ls-files', '-z', '--others'], userRepo({ rawStdout: true }));
    expect(listed.raw).toEqual(Buffer.from('b.bin\0'));
  });
});
