import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HardenedGitOptions, runHardenedGit } from './internal/hardened-git.js';

// The repository's own config (a file a model can write in a workspace) names programs; in the user's scope the
// hardened runner must run none of them, while the user's global config keeps its say.
let base: string;
let repo: string;
let marker: string;
const savedEnv = { ...process.env };

const plainGit = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    encoding: 'utf8',
  });

// A program that leaves its name in the marker file; as a filter (first argument `filter`) it passes the text on.
function program(name: string): string {
  const path = join(base, name);
  writeFileSync(path, `#!/bin/sh\necho ${name} >> '${marker}'\n[ "$1" = filter ] && exec cat\nexit 1\n`);
  chmodSync(path, 0o755);
  return path;
}
const ran = () => (existsSync(marker) ? readFileSync(marker, 'utf8') : '');

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'bough-git-local-')));
  repo = join(base, 'repo');
  marker = join(base, 'ran');
  const home = join(base, 'home');
  mkdirSync(repo);
  mkdirSync(home);
  writeFileSync(join(home, '.gitconfig'), '');
  process.env.HOME = home;
  plainGit('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'a.txt'), 'one\n');
  writeFileSync(join(repo, '.gitattributes'), '*.txt filter=x diff=d merge=m\n');
  plainGit('add', '-A');
  plainGit('commit', '-q', '-m', 'first');
});
afterEach(() => {
  process.env = { ...savedEnv };
  rmSync(base, { recursive: true, force: true });
});

const options: HardenedGitOptions = {
  scope: { kind: 'user' },
  get cwd() {
    return repo;
  },
  timeoutMs: 20_000,
  maxOutputBytes: 65_536,
  config: ['user.name=t', 'user.email=t@t.invalid'],
};
const run = (args: readonly string[]) => runHardenedGit(args, options);

const change = () => writeFileSync(join(repo, 'a.txt'), 'two\n');
function branchToMerge() {
  plainGit('checkout', '-q', '-b', 'side');
  writeFileSync(join(repo, 'a.txt'), 'side\n');
  plainGit('commit', '-q', '-am', 'side');
  plainGit('checkout', '-q', 'main');
  writeFileSync(join(repo, 'a.txt'), 'main\n');
  plainGit('commit', '-q', '-am', 'main');
}

interface Row {
  readonly name: string;
  readonly config: ReadonlyArray<readonly [string, string]>;
  readonly prepare?: () => void;
  readonly args: readonly string[];
  /** Whether git still succeeds once the program is gone (else it fails saying so). */
  readonly ok: boolean;
}

const rows = (p: (name: string) => string): Row[] => [
  {
    name: 'filter clean on add',
    config: [['filter.x.clean', `${p('clean')} filter`]],
    prepare: change,
    args: ['add', '-A'],
    ok: true,
  },
  {
    name: 'required filter process on add',
    config: [
      ['filter.x.process', p('process')],
      ['filter.x.required', 'true'],
    ],
    prepare: change,
    args: ['add', '-A'],
    ok: true,
  },
  {
    name: 'filter smudge on checkout',
    config: [['filter.x.smudge', `${p('smudge')} filter`]],
    prepare: () => rmSync(join(repo, 'a.txt')),
    args: ['checkout', 'HEAD', '--', 'a.txt'],
    ok: true,
  },
  {
    name: 'filter smudge on worktree add',
    config: [['filter.x.smudge', `${p('smudge')} filter`]],
    args: ['worktree', 'add', '-q', '../wt', 'HEAD'],
    ok: true,
  },
  {
    name: 'gpg program on commit',
    config: [
      ['commit.gpgSign', 'true'],
      ['gpg.program', p('gpg')],
    ],
    prepare: change,
    args: ['commit', '--no-verify', '-qam', 'two'],
    ok: true,
  },
  {
    name: 'ssh signing program on an annotated tag',
    config: [
      ['tag.gpgSign', 'true'],
      ['gpg.format', 'ssh'],
      ['user.signingKey', 'key::ssh-ed25519 AAAA'],
      ['gpg.ssh.program', p('ssh-keygen')],
    ],
    args: ['tag', '-a', '-m', 'v', 'v1'],
    ok: true,
  },
  {
    name: 'merge driver on merge',
    config: [['merge.m.driver', `${p('merge')} %A`]],
    prepare: branchToMerge,
    args: ['merge', '--no-edit', 'side'],
    ok: false,
  },
  // Kept off by --no-ext-diff before this change too; the emptied command is a second, command-independent layer.
  {
    name: 'diff command on diff',
    config: [['diff.d.command', p('diff-command')]],
    prepare: change,
    args: ['diff'],
    ok: true,
  },
  {
    name: 'textconv on cat-file --textconv',
    config: [['diff.d.textconv', p('textconv')]],
    args: ['cat-file', '--textconv', 'HEAD:a.txt'],
    ok: false,
  },
  { name: 'textconv on blame', config: [['diff.d.textconv', p('textconv')]], args: ['blame', 'a.txt'], ok: true },
  {
    name: 'sequence editor on rebase -i',
    config: [['sequence.editor', p('sequence-editor')]],
    args: ['rebase', '-q', '-i', 'HEAD'],
    ok: true,
  },
  {
    name: 'ssh command on ls-remote',
    config: [['core.sshCommand', p('ssh')]],
    args: ['ls-remote', 'ssh://example.invalid/r'],
    ok: false,
  },
  {
    name: 'git proxy on ls-remote',
    config: [['core.gitProxy', p('proxy')]],
    args: ['ls-remote', 'git://example.invalid/r'],
    ok: false,
  },
  {
    name: 'ext transport allowed locally',
    config: [['protocol.ext.allow', 'always']],
    args: ['ls-remote', `ext::${p('ext')} %S`],
    ok: false,
  },
];

describe("programs named by the repository's own config (user scope)", () => {
  it.each(rows((name) => join('BASE', name)).map((row) => [row.name, row] as const))(
    '%s: never runs',
    async (_name, template) => {
      const row = rows(program).find((r) => r.name === template.name) as Row;
      for (const [key, value] of row.config) plainGit('config', key, value);
      row.prepare?.();
      const result = await run(row.args);
      expect(ran()).toBe('');
      expect(result.finished).toBe(true);
      expect(result.ok).toBe(row.ok);
      if (!row.ok) expect(result.message).not.toBe('');
    },
  );

  it('neutralises a filter brought in by a local include.path and a worktree config', async () => {
    const included = join(base, 'included');
    writeFileSync(included, `[filter "x"]\n\tclean = ${program('included')} filter\n`);
    plainGit('config', 'include.path', included);
    change();
    expect(await run(['add', '-A'])).toMatchObject({ ok: true });
    plainGit('config', '--unset', 'include.path');
    plainGit('config', 'extensions.worktreeConfig', 'true');
    plainGit('config', '--worktree', 'filter.x.clean', `${program('per-worktree')} filter`);
    writeFileSync(join(repo, 'a.txt'), 'three\n');
    expect(await run(['add', '-A'])).toMatchObject({ ok: true });
    expect(ran()).toBe('');
  });

  it('neutralises a conditional include (relative to .git) that only holds in the new worktree', async () => {
    writeFileSync(join(repo, '.git', 'on-branch.inc'), `[filter "x"]\n\tsmudge = ${program('on-branch')} filter\n`);
    plainGit('config', 'includeIf.onbranch:bough/**.path', 'on-branch.inc');
    mkdirSync(join(repo, 'sub'));
    const fromSub = { ...options, cwd: join(repo, 'sub') };
    const added = await runHardenedGit(['worktree', 'add', '-q', '-b', 'bough/s1', join(base, 'wt'), 'HEAD'], fromSub);
    expect(added).toMatchObject({ ok: true });
    expect(ran()).toBe('');
  });

  it("keeps a filter from the user's global config, even when the repository redefines it", async () => {
    writeFileSync(
      join(process.env.HOME as string, '.gitconfig'),
      `[filter "x"]\n\tclean = ${program('global')} filter\n`,
    );
    plainGit('config', 'filter.x.clean', `${program('local')} filter`);
    change();
    expect(await run(['add', '-A'])).toMatchObject({ ok: true });
    expect(ran()).toBe('global\n');
    expect(plainGit('show', ':a.txt')).toBe('two\n');
  });
});
