// The escape corpus: every route out of the OS sandbox we know of, each run as a model would (a bash call under
// `sandbox: 'required'`), each followed by the same checks: nothing outside the workspace changed, and the host's own
// `git status` and `git commit` afterwards run no code the command planted (a planted hook or fsmonitor would create
// the marker file). Skips, saying why, only where bubblewrap cannot build a sandbox.
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxSupport } from '@bough/process';
import { GIT_ID, gitSync, initRepo, makeWorkspace, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BashCallOptions } from './bash-options.js';
import { handleBash } from './handle-bash.js';
import { createBashTools } from './tool-set.js';

const support = sandboxSupport();
if (!support.available)
  console.warn(`SKIPPED sandbox escape corpus: bubblewrap cannot sandbox here: ${support.reason}`);
const PY = '/usr/bin/python3';
const hasPython = existsSync(PY);
if (!hasPython) console.warn(`SKIPPED the python rows of the sandbox escape corpus: ${PY} is missing`);

let ws: TempWorkspace;
let marker: string;
let outsideBefore: string;
beforeEach(() => {
  ws = makeWorkspace({ '.env': 'CORPUS-ENV-CANARY\n', 'src/a.txt': 'a\n', 'vendor/lib/x.txt': 'x\n' });
  initRepo(ws.path('vendor/lib'));
  initRepo(ws.root);
  marker = join(ws.base, 'MARKER');
  outsideBefore = snapshotTree(ws.outside);
});
afterEach(() => ws.cleanup());

// biome-ignore lint/suspicious/noExplicitAny: loose access to the result shape in assertions
async function run(command: string, extra: Partial<BashCallOptions> = {}, timeout = 20_000): Promise<any> {
  return handleBash({ command, timeout }, { workspaceRoot: ws.root, sandbox: 'required', ...extra });
}

/** A shell line that writes an executable hook creating the marker. */
const hook = (file: string) => `printf "#!/bin/sh\\ntouch ${marker}\\n" > ${file}; chmod +x ${file}`;
const fsmonitor = (gitDir: string) => `git --git-dir=${gitDir} config core.fsmonitor "touch ${marker}"`;

/** The host's plain git in every directory a planted repository could answer for; then the marker must be absent. */
function hostGitRunsNothing(): void {
  const dirs = ['.', 'sub', 'sub2', 'sub3', 'sub4', 'pkg', 'vendor/lib', 'vendor-old/lib', 'evil'];
  for (const dir of dirs.map((d) => ws.path(d)).filter((d) => existsSync(d))) {
    for (const args of [['status'], ['commit', '-q', '--allow-empty', '-m', 'probe']]) {
      try {
        execFileSync('git', [...GIT_ID, ...args], {
          cwd: dir,
          stdio: 'ignore',
          env: { ...process.env, GIT_PAGER: 'cat' },
        });
      } catch {
        // not a repository, or nothing to commit: only whether planted code ran matters
      }
    }
  }
  expect(existsSync(marker), 'planted git code ran on the host').toBe(false);
}

interface Route {
  readonly name: string;
  readonly command: () => string;
  readonly setup?: () => void;
  readonly python?: boolean;
  /** Milliseconds before the command is stopped (default 20 s). */
  readonly timeout?: number;
  /** Extra checks on the result and the workspace afterwards. */
  // biome-ignore lint/suspicious/noExplicitAny: the result shape varies by route
  readonly verify?: (result: any) => void;
}

const sh = (script: string) => `sh -c '${script}'`;
// A sleep length nothing else uses: a survivor would carry it on its command line.
const sleepMark = `1000.${process.pid}${Math.floor(Math.random() * 1e6)}`;

/** Host pids (not zombies) whose command line contains `text`. */
function processesWith(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (/\) [ZX] /.test(readFileSync(`/proc/${entry}/stat`, 'latin1'))) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(text)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
const py = (code: string) => `${PY} -c '${code}'`;

const GIT_ROUTES: Route[] = [
  {
    name: 'not an escape: ordinary git add and commit still work inside the sandbox',
    command: () =>
      sh('echo b >> src/a.txt && git add src/a.txt && git -c user.name=a -c user.email=a@b.c commit -qm inside'),
    verify: (result) => {
      expect(result.return_code).toBe(0);
      expect(gitSync(ws.root, 'log', '-1', '--format=%s')).toBe('inside\n');
    },
  },
  {
    name: 'rename .git aside, copy it back, plant a hook and core.fsmonitor',
    command: () => sh(`mv .git .git-old; cp -a .git-old .git; ${hook('.git/hooks/pre-commit')}; ${fsmonitor('.git')}`),
  },
  {
    name: 'python os.rename of .git and a hook in the copy',
    python: true,
    command: () =>
      py(
        `import os, shutil\ntry:\n  os.rename(".git", ".git-old"); shutil.copytree(".git-old", ".git", symlinks=True)\nexcept OSError as e: print(e)\nopen(".git/hooks/pre-commit", "w").write("#!/bin/sh\\ntouch ${marker}\\n")\nos.chmod(".git/hooks/pre-commit", 0o755)`,
      ),
  },
  {
    name: 'commondir pointing at a copy with its own hooks and config',
    command: () =>
      sh(`cp -a .git evil; ${hook('evil/hooks/pre-commit')}; ${fsmonitor('evil')}; echo ../evil > .git/commondir`),
    verify: () => expect(existsSync(ws.path('.git/commondir'))).toBe(false),
  },
  {
    name: 'git config core.hooksPath and core.pager',
    command: () => sh(`git config core.hooksPath /tmp; git config core.pager "touch ${marker}"`),
  },
  {
    name: 'config.worktree with an fsmonitor',
    command: () => sh(`printf "[core]\\n\\tfsmonitor = touch ${marker}\\n" > .git/config.worktree`),
    verify: () => expect(existsSync(ws.path('.git/config.worktree'))).toBe(false),
  },
  {
    name: 'info/attributes naming a filter driver',
    command: () => sh('printf "* filter=evil\\n" > .git/info/attributes'),
    verify: () => expect(existsSync(ws.path('.git/info/attributes'))).toBe(false),
  },
  {
    name: 'objects/info/alternates and a submodule git dir under .git/modules',
    command: () =>
      sh(
        `mkdir -p .git/objects/info .git/modules/x/hooks; echo /tmp > .git/objects/info/alternates; ${hook('.git/modules/x/hooks/pre-commit')}`,
      ),
    verify: () => {
      expect(existsSync(ws.path('.git/objects/info/alternates'))).toBe(false);
      expect(existsSync(ws.path('.git/modules/x/hooks'))).toBe(false);
    },
  },
  {
    name: 'a new nested repository with a hook',
    command: () => sh(`git init -q sub2; ${hook('sub2/.git/hooks/pre-commit')}; ${fsmonitor('sub2/.git')}`),
    verify: (result) => {
      expect(existsSync(ws.path('sub2/.git'))).toBe(false);
      expect(result.note).toMatch(/removed the new git repository "sub2\/.git"/);
    },
  },
  {
    name: 'a gitdir: file pointing at a planted git directory',
    command: () =>
      sh(`mkdir -p sub3; cp -a .git evil; ${hook('evil/hooks/pre-commit')}; echo "gitdir: ../evil" > sub3/.git`),
    verify: () => expect(existsSync(ws.path('sub3/.git'))).toBe(false),
  },
  {
    name: 'a .git symlink to a planted git directory',
    command: () => sh(`mkdir -p sub4; cp -a .git evil; ${hook('evil/hooks/pre-commit')}; ln -s ../evil sub4/.git`),
    verify: () => expect(existsSync(ws.path('sub4/.git'))).toBe(false),
  },
  {
    name: 'a bare repository in the tree (git takes a directory with HEAD, objects and refs for one)',
    command: () => sh(`git init -q --bare pkg; ${fsmonitor('pkg')}; ${hook('pkg/hooks/pre-commit')}`),
    verify: () => {
      const gitDir = execFileSync('git', ['rev-parse', '--absolute-git-dir'], {
        cwd: ws.path('pkg'),
        encoding: 'utf8',
      });
      expect(gitDir.trim()).toBe(ws.path('.git'));
    },
  },
  {
    name: "an existing nested repository's parent renamed aside and copied back",
    command: () =>
      sh(
        `mv vendor vendor-old; cp -a vendor-old vendor; ${hook('vendor/lib/.git/hooks/pre-commit')}; ${fsmonitor('vendor/lib/.git')}`,
      ),
    verify: () => expect(existsSync(ws.path('vendor/lib/.git'))).toBe(false),
  },
  {
    name: 'a hooks directory the repository config names inside the workspace (core.hooksPath, husky style)',
    setup: () => {
      ws.write('.githooks/pre-commit', '#!/bin/sh\nexit 0\n', 0o755);
      gitSync(ws.root, 'config', 'core.hooksPath', '.githooks');
    },
    command: () =>
      sh(`${hook('.githooks/pre-commit')}; rm -rf .githooks; mkdir -p .githooks; ${hook('.githooks/pre-commit')}`),
    verify: () => expect(readFileSync(ws.path('.githooks/pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n'),
  },
  {
    name: 'a config file the repository includes from the workspace',
    setup: () => {
      ws.write('shared.gitconfig', '[user]\n\tname = x\n');
      gitSync(ws.root, 'config', 'include.path', '../shared.gitconfig');
    },
    command: () => sh(`printf "[core]\\n\\tfsmonitor = touch ${marker}\\n" >> shared.gitconfig`),
    verify: () => expect(readFileSync(ws.path('shared.gitconfig'), 'utf8')).toBe('[user]\n\tname = x\n'),
  },
  {
    name: 'a repository without hooks or info directories: creating them fails while the command runs',
    setup: () => {
      rmSync(ws.path('.git/hooks'), { recursive: true, force: true });
      rmSync(ws.path('.git/info'), { recursive: true, force: true });
    },
    command: () => sh(`${hook('.git/hooks/pre-commit')}; echo "* filter=evil" > .git/info/attributes`),
    verify: (result) => {
      expect(result.stderr).toMatch(/Read-only file system/);
      expect(readdirSync(ws.path('.git/hooks'))).toEqual([]);
    },
  },
  {
    name: 'a hooks symlink (hooks kept in the tree) replaced by a directory with a hook',
    setup: () => {
      renameSync(ws.path('.git/hooks'), ws.path('.githooks'));
      symlinkSync('../.githooks', ws.path('.git/hooks'));
    },
    command: () =>
      sh(`rm -f .git/hooks; mkdir .git/hooks; ${hook('.git/hooks/pre-commit')}; ${hook('.githooks/pre-commit')}`),
    verify: (result) => {
      expect(result.note).toMatch(/restored/);
      expect(readlinkSync(ws.path('.git/hooks'))).toBe('../.githooks');
      expect(existsSync(ws.path('.githooks/pre-commit'))).toBe(false);
    },
  },
  {
    name: 'a setsid loop still planting repositories when the command times out',
    timeout: 1_500,
    command: () => sh('setsid sh -c "while true; do mkdir -p sub9/.git/hooks; rm -rf sub9; done" & sleep 30'),
    verify: (result) => {
      expect(result.timed_out).toBe(true);
      expect(existsSync(ws.path('sub9/.git'))).toBe(false);
    },
  },
  {
    name: 'a submodule-style .git file and its git directory under .git/modules',
    setup: () => {
      const module = join(ws.base, 'module');
      execFileSync('mkdir', ['-p', module, ws.path('.git/modules'), ws.path('sub')]);
      initRepo(module);
      execFileSync('mv', [join(module, '.git'), ws.path('.git/modules/sub')]);
      writeFileSync(ws.path('sub/.git'), 'gitdir: ../.git/modules/sub\n');
      gitSync(ws.path('sub'), 'config', 'core.worktree', '../../../sub');
    },
    command: () =>
      sh(
        `rm -f sub/.git; echo "gitdir: ../evil" > sub/.git; cp -a .git evil; ${hook('evil/hooks/pre-commit')}; ${hook('.git/modules/sub/hooks/pre-commit')}; ${fsmonitor('.git/modules/sub')}`,
      ),
    verify: () => expect(readFileSync(ws.path('sub/.git'), 'utf8')).toBe('gitdir: ../.git/modules/sub\n'),
  },
];

const OTHER_ROUTES: Route[] = [
  { name: 'touch outside the workspace', command: () => `touch ${join(ws.outside, 'planted')}` },
  {
    name: 'python writes outside, to ~, through /tmp/.. and /proc/1/root',
    python: true,
    command: () =>
      py(
        `import os\nfor p in ["${join(ws.outside, 'p')}", os.path.expanduser("~/bough-corpus"), "/tmp/../etc/bough-corpus", "/proc/1/root${ws.outside}/q", "/proc/self/root${ws.outside}/r"]:\n  try: open(p, "w").write("x")\n  except OSError as e: print(e.errno)`,
      ),
    verify: () => {
      expect(existsSync('/etc/bough-corpus')).toBe(false);
      expect(existsSync(join(homedir(), 'bough-corpus'))).toBe(false);
    },
  },
  {
    name: 'a hard link and a symlink to a protected file',
    command: () => sh('ln .env hard; ln -s .env soft; cat hard soft .env; mv .env moved'),
    verify: (result) => expect(JSON.stringify(result)).not.toMatch(/CORPUS-ENV-CANARY/),
  },
  {
    name: 'python symlink swap of a protected file and a read through /proc/self/fd',
    python: true,
    command: () =>
      py(
        'import os\ntry: os.rename(".env", "x")\nexcept OSError as e: print(e.errno)\nos.symlink("/proc/self/root' +
          `${ws.path('.env')}", "via-proc")\ntry: print(open("via-proc").read())\nexcept OSError as e: print(e.errno)`,
      ),
    verify: (result) => expect(JSON.stringify(result)).not.toMatch(/CORPUS-ENV-CANARY/),
  },
  {
    name: 'setsid and a double fork leave nothing running',
    python: true,
    command: () =>
      py(
        `import os, subprocess\nsubprocess.Popen(["setsid", "sleep", "${sleepMark}"])\nif os.fork() == 0:\n  os.setsid()\n  if os.fork() == 0: os.execvp("sleep", ["sleep", "${sleepMark}"])\n  os._exit(0)\nprint("started")`,
      ),
    verify: (result) => {
      expect(result.stdout).toBe('started\n');
      expect(processesWith(sleepMark)).toEqual([]);
    },
  },
  {
    name: 'descriptors: only stdin, stdout and stderr are open',
    command: () => 'ls /proc/self/fd',
    // 3 is the directory ls itself opened to list.
    verify: (result) => expect(result.stdout).toBe('0\n1\n2\n3\n'),
  },
  {
    name: 'socket variables are scrubbed even when the host passes them',
    command: () => 'env',
    verify: (result) => expect(result.stdout).not.toMatch(/SSH_AUTH_SOCK|DBUS_SESSION_BUS_ADDRESS|DOCKER_HOST/),
  },
];

describe.skipIf(!support.available)('sandbox escape corpus', () => {
  for (const route of [...GIT_ROUTES, ...OTHER_ROUTES]) {
    it.skipIf(route.python === true && !hasPython)(route.name, async () => {
      route.setup?.();
      const result = await run(
        route.command(),
        {
          env: {
            SSH_AUTH_SOCK: '/tmp/agent.sock',
            DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/bus',
            DOCKER_HOST: 'unix:///run/d',
          },
        },
        route.timeout,
      );
      expect(result).toMatchObject({ success: true, sandboxed: true });
      route.verify?.(result);
      expect(snapshotTree(ws.outside)).toBe(outsideBefore);
      hostGitRunsNothing();
    });
  }

  it('a workspace without .git: git init plus a hook is removed before the host could run it', async () => {
    const bare = makeWorkspace({ 'a.txt': 'a\n' });
    try {
      const result = await handleBash(
        { command: sh(`git init -q .; ${hook('.git/hooks/pre-commit')}; ${fsmonitor('.git')}`) },
        { workspaceRoot: bare.root, sandbox: 'required' },
      );
      expect(result).toMatchObject({ success: true, sandboxed: true });
      expect(existsSync(join(bare.root, '.git'))).toBe(false);
      try {
        execFileSync('git', [...GIT_ID, 'commit', '-q', '--allow-empty', '-m', 'x'], {
          cwd: bare.root,
          stdio: 'ignore',
        });
      } catch {
        // no repository any more
      }
      expect(existsSync(marker)).toBe(false);
    } finally {
      bare.cleanup();
    }
  });

  it('a background job that plants a repository: undone when the job ends', async () => {
    const set = createBashTools({ workspaceRoot: ws.root, sandbox: 'required' });
    const call = { signal: new AbortController().signal, callId: 'corpus' };
    try {
      const job = (await set.bash.handler(
        { command: sh(`git init -q sub2; ${hook('sub2/.git/hooks/pre-commit')}`), background: true },
        call,
      )) as { success: boolean; job_id: string };
      expect(job).toMatchObject({ success: true, sandboxed: true });
      const done = await set.jobs.handler({ action: 'wait', job_id: job.job_id, timeout: 20_000 }, call);
      expect(done).toMatchObject({ status: 'exited', note: expect.stringMatching(/removed the new git repository/) });
      expect(existsSync(ws.path('sub2/.git'))).toBe(false);
      hostGitRunsNothing();
    } finally {
      await set.dispose();
    }
  });

  it('a protected file the host replaces mid-command (an atomic save) never reaches the output', async () => {
    const code =
      'import time\nfor _ in range(200):\n  try: print(open(".env").read()); break\n  except OSError: time.sleep(0.05)';
    const pending = run(py(code));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    writeFileSync(ws.path('.env.tmp'), 'REPLACED-SECRET\n');
    renameSync(ws.path('.env.tmp'), ws.path('.env'));
    const result = await pending;
    expect(JSON.stringify(result)).not.toMatch(/REPLACED-SECRET|CORPUS-ENV-CANARY/);
    expect(result.note).toMatch(/replaced, removed or re-created.*withheld/);
  });

  it('a listening Unix socket outside the workspace (path and abstract) cannot be reached', async () => {
    const path = join(ws.outside, 'agent.sock');
    const abstract = `\0bough-corpus-${process.pid}`;
    let connections = 0;
    const servers = [path, abstract].map((where) => {
      const server = createServer((socket) => {
        connections++;
        socket.destroy();
      });
      return new Promise<typeof server>((resolve) => server.listen(where, () => resolve(server)));
    });
    const listening = await Promise.all(servers);
    try {
      const code = `import socket\nfor a in ["${path}", "\\0${abstract.slice(1)}"]:\n  s = socket.socket(socket.AF_UNIX)\n  try: s.connect(a); print("connected")\n  except OSError as e: print("refused", e.errno)`;
      const result = await run(py(code));
      expect(result.stdout).not.toMatch(/connected/);
      expect(connections).toBe(0);
    } finally {
      for (const server of listening) server.close();
    }
  });

  it('no request field turns the sandbox, the network or the policy off', async () => {
    for (const field of [{ sandbox: 'off' }, { network: true }, { denyRead: [] }, { allow_shell: true }, { env: {} }]) {
      const result = await handleBash(
        // biome-ignore lint/suspicious/noExplicitAny: deliberately outside the request type
        { command: `cat ${join(ws.outside, 'secret.txt')}`, ...field } as any,
        { workspaceRoot: ws.root, sandbox: 'required' },
      );
      expect(result).toMatchObject({ success: false, error_code: 'invalid_request' });
    }
  });
});

const PROCESS_DIST = new URL('../../process/dist/index.js', import.meta.url);
if (!existsSync(PROCESS_DIST)) {
  console.warn('SKIPPED the host-process rows of the sandbox escape corpus: build @bough/process first (pnpm build)');
}

/** Runs a host program (a node child using the built @bough/process) with `extra` stdio entries after stderr. */
function hostChild(script: string, extra: number[] = []) {
  return spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe', ...extra],
    env: { ...process.env, BOUGH_PROCESS: PROCESS_DIST.href },
  });
}

const childRun = (root: string, command: string) => `
  const { openSandbox, runProcess, splitCommand } = await import(process.env.BOUGH_PROCESS);
  const session = openSandbox(${JSON.stringify(root)}, { mode: 'required' });
  const result = await runProcess(splitCommand(${JSON.stringify(command)}).argv, { workspaceRoot: ${JSON.stringify(root)}, wrap: session.wrap });
  console.log(JSON.stringify(result));
`;

/**
 * A host program that inherited descriptors the way `exec 200>>file` in a parent shell leaves them (Node's own spawn
 * marks the extra stdio entries close-on-exec in the child, so bash opens them): one per file, from 200 up.
 */
function hostHolding(script: string, files: readonly string[]) {
  const opens = files.map((file, at) => `${200 + at}>>${JSON.stringify(file)}`).join(' ');
  return spawn('/bin/bash', ['-c', `exec ${opens} "$0" --input-type=module -e "$1"`, process.execPath, script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BOUGH_PROCESS: PROCESS_DIST.href },
  });
}

const wrappedArgv = (root: string) => `
  const { openSandbox } = await import(process.env.BOUGH_PROCESS);
  const session = openSandbox(${JSON.stringify(root)}, { mode: 'required' });
  const command = { program: '/usr/bin/true', argv: ['true'], cwd: ${JSON.stringify(root)}, env: {} };
  console.log(JSON.stringify(session.wrap(command).argv));
`;

describe.skipIf(!support.available || !existsSync(PROCESS_DIST))('sandbox escape corpus: the host process', () => {
  it.skipIf(!hasPython)('a descriptor the host inherited does not reach the command', async () => {
    const target = join(ws.outside, 'inherited.log');
    writeFileSync(target, 'before\n');
    const fd = openSync(target, 'a');
    const code =
      'import os\nprint(sorted(os.listdir("/proc/self/fd")))\nfor fd in (3, 4):\n  try: os.write(fd, b"ESCAPED\\n")\n  except OSError as e: print("refused", fd, e.errno)';
    const child = hostChild(childRun(ws.root, `${PY} -c '${code}'`), [fd]);
    let out = '';
    child.stdout?.on('data', (chunk) => (out += chunk));
    await new Promise((resolve) => child.once('exit', resolve));
    expect(JSON.parse(out)).toMatchObject({ success: true });
    expect(JSON.parse(out).stdout).toMatch(/\['0', '1', '2', '3'\]/);
    expect(readFileSync(target, 'utf8')).toBe('before\n');
  });

  // Up to three inheritable descriptors are replaced by pipes bwrap closes itself; more go through the bash closer.
  for (const held of [1, 2, 5]) {
    it.skipIf(!hasPython)(`${held} descriptor(s) the host inherited do not reach the command`, async () => {
      const targets = Array.from({ length: held }, (_, at) => join(ws.outside, `inherited-${at}.log`));
      for (const target of targets) writeFileSync(target, 'before\n');
      const code =
        'import os\nprint(sorted(os.listdir("/proc/self/fd")))\nfor fd in range(200, 210):\n  try: os.write(fd, b"ESCAPED\\n")\n  except OSError as e: pass';
      const child = hostHolding(childRun(ws.root, `${PY} -c '${code}'`), targets);
      let out = '';
      child.stdout?.on('data', (chunk) => (out += chunk));
      await new Promise((resolve) => child.once('exit', resolve));
      expect(JSON.parse(out)).toMatchObject({ success: true });
      expect(JSON.parse(out).stdout).toMatch(/\['0', '1', '2', '3'\]/);
      for (const target of targets) expect(readFileSync(target, 'utf8')).toBe('before\n');
      // Which way was taken: the bash closer only past three (the test runner may hold one more of its own).
      const argvOf = hostHolding(wrappedArgv(ws.root), targets);
      let printed = '';
      argvOf.stdout?.on('data', (chunk) => (printed += chunk));
      await new Promise((resolve) => argvOf.once('exit', resolve));
      expect(JSON.parse(printed).includes('bough-fd-closer')).toBe(held > 3);
    });
  }

  it('a host killed by SIGKILL mid-command leaves no temp directory once the next host starts', async () => {
    const sleeper = hostChild(childRun(ws.root, `sleep ${sleepMark}`));
    const pid = sleeper.pid as number;
    const mine = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`bough-sandbox-${pid}-`));
    while (mine().length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 300));
    sleeper.kill('SIGKILL');
    await new Promise((resolve) => sleeper.once('exit', resolve));
    expect(mine().length).toBe(1);
    // --die-with-parent: the sandbox went with its host.
    for (let i = 0; i < 40 && processesWith(sleepMark).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(processesWith(sleepMark)).toEqual([]);
    const next = hostChild(childRun(ws.root, 'true'));
    await new Promise((resolve) => next.once('exit', resolve));
    expect(mine()).toEqual([]);
  });
});
