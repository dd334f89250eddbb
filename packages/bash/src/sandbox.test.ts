// What an interpreter can try inside the OS sandbox. Skips only where bubblewrap cannot create namespaces, and says so.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxSupport } from '@bough/process';
import { eventually, makeWorkspace, protectedPolicyWith, snapshotTree, type TempWorkspace } from '@bough/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BashCallOptions } from './bash-options.js';
import { handleBash } from './handle-bash.js';
import type { BashJobStarted } from './jobs-schema.js';
import { createBashTools } from './tool-set.js';

const support = sandboxSupport();
if (!support.available) console.warn(`SKIPPED sandbox tests: bubblewrap cannot sandbox here: ${support.reason}`);
const PY = '/usr/bin/python3';
const hasPython = existsSync(PY);
if (!hasPython) console.warn(`SKIPPED the interpreter cases of the sandbox tests: ${PY} is missing`);

let ws: TempWorkspace;
let marker: string;
let outsideBefore: string;
beforeEach(() => {
  ws = makeWorkspace({ '.env': 'SANDBOX-ENV-CANARY\n', 'sub/keep.txt': 'keep\n', 'deep/id_rsa': 'KEY-CANARY\n' });
  mkdirSync(ws.path('.git/hooks'), { recursive: true });
  writeFileSync(ws.path('.git/config'), '[core]\n\tbare = false\n');
  // A sleep length nothing else uses: sleepers carry it on their command line, so /proc shows whether any survived.
  marker = `1000.${process.pid}${Math.floor(Math.random() * 1e9)}`;
  outsideBefore = snapshotTree(ws.outside);
});
afterEach(() => {
  expect(snapshotTree(ws.outside)).toBe(outsideBefore);
  expect(processesWith(marker)).toEqual([]);
  ws.cleanup();
});

const sandboxed = (extra: Partial<BashCallOptions> = {}): BashCallOptions => ({
  workspaceRoot: ws.root,
  sandbox: 'required',
  ...extra,
});
// biome-ignore lint/suspicious/noExplicitAny: loose access to the result shape in assertions
const run = async (command: string, extra: Partial<BashCallOptions> = {}): Promise<any> => {
  const result = await handleBash({ command, timeout: 20_000 }, sandboxed(extra));
  expect(result).toMatchObject({ sandboxed: true });
  return result;
};
const py = (code: string) => `${PY} -c '${code}'`;

/** Host pids whose command line contains `text` (sleepers the tests start carry the marker as an argument). */
function processesWith(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      if (/\) [ZX] /.test(stat)) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(text)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe.skipIf(!support.available)('OS sandbox (bubblewrap)', () => {
  it('lets the command write in the workspace and nowhere else', async () => {
    const made = await run('touch made.txt');
    expect(made.return_code).toBe(0);
    expect(existsSync(ws.path('made.txt'))).toBe(true);
    const outside = await run(`touch ${join(ws.outside, 'planted')}`);
    expect(outside.return_code).not.toBe(0);
  });

  it.skipIf(!hasPython)('refuses or discards python writes outside, to ~ and through /tmp/..', async () => {
    const home = join(homedir(), `${marker}.txt`);
    const targets = [join(ws.outside, 'py.txt'), join(ws.base, 'sibling.txt'), home, `/tmp/../etc/${marker}`];
    const code = `import sys\nfor p in sys.argv[1:]:\n  try:\n    open(p, "w").write("x"); print("wrote", p)\n  except OSError as e: print("refused", p, e.errno)`;
    const result = await handleBash({ command: `${PY} -c '${code}' ${targets.join(' ')}` }, sandboxed());
    expect(result).toMatchObject({ sandboxed: true, return_code: 0 });
    for (const target of targets) expect(existsSync(target)).toBe(false);
    // The home directory is an empty scratch space inside the sandbox: the write "works" there and vanishes.
    const tmp = await run(py(`open("/tmp/${marker}", "w").write("x"); print("ok")`));
    expect(tmp.stdout).toBe('ok\n');
    expect(existsSync(`/tmp/${marker}`)).toBe(false);
  });

  it.skipIf(!hasPython)('has no network: a connect to a loopback listener of the test never arrives', async () => {
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const code = `import socket\ntry:\n  socket.create_connection(("127.0.0.1", ${port}), 2); print("connected")\nexcept OSError as e: print("refused", e.errno)`;
      const blocked = await run(py(code));
      expect(blocked.stdout).toMatch(/^refused/);
      expect(connections).toBe(0);
      const allowed = await run(py(code), { network: true });
      expect(allowed.stdout).toBe('connected\n');
      await eventually(() => (connections === 1 ? true : undefined));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.skipIf(!hasPython)('leaves no setsid child or double fork running after the call', async () => {
    const code = [
      'import os, subprocess',
      `subprocess.Popen(["setsid", "sleep", "${marker}"])`,
      'if os.fork() == 0:',
      '  os.setsid()',
      `  if os.fork() == 0: os.execvp("sleep", ["sleep", "${marker}"])`,
      '  os._exit(0)',
      'print("started")',
    ].join('\n');
    const result = await run(py(code));
    expect(result.stdout).toBe('started\n');
    expect(processesWith(marker)).toEqual([]);
  });

  it('hides protected files: cat gets no byte of them', async () => {
    const env = await run('cat .env');
    const key = await run('cat deep/id_rsa');
    for (const result of [env, key]) {
      expect(result.return_code).not.toBe(0);
      expect(JSON.stringify(result)).not.toMatch(/CANARY/);
    }
    const overwrite = await run("sh -c 'echo replaced > .env; rm -f .env; mv .env gone'");
    expect(JSON.stringify(overwrite)).not.toMatch(/CANARY/);
    expect(readFileSync(ws.path('.env'), 'utf8')).toBe('SANDBOX-ENV-CANARY\n');
  });

  it("hides what the session's own policy protects: a folder and a file name beyond the defaults", async () => {
    writeFileSync(ws.path('.env'), 'SANDBOX-ENV-CANARY\n');
    mkdirSync(ws.path('.bough/sessions'), { recursive: true });
    writeFileSync(ws.path('.bough/x'), 'BOUGH-CANARY\n');
    writeFileSync(ws.path('.bough/sessions/s.json'), '{"said":"SESSION-CANARY"}\n');
    writeFileSync(ws.path('sub/notes.session'), 'NOTES-CANARY\n');
    // The workspace defaults (from the test utilities: bash itself takes no dependency on the workspace package),
    // plus the session's own folder and file pattern.
    const protectedNames = protectedPolicyWith({ names: ['.bough'], patterns: ['*.session'] });
    for (const command of [
      'cat .bough/x',
      'cat .bough/sessions/s.json',
      'ls -R .bough',
      'cat sub/notes.session',
      'cat .env',
    ]) {
      const result = await run(command, { protectedNames });
      expect(JSON.stringify(result), command).not.toMatch(/CANARY/);
    }
    expect((await run('cat .bough/x', { protectedNames })).return_code).not.toBe(0);
    expect((await run('ls .bough', { protectedNames })).stdout).toBe('');
    // The same command without the policy sees the file: the hiding above is the policy's doing.
    expect((await run('cat .bough/x')).stdout).toBe('BOUGH-CANARY\n');
    expect(readFileSync(ws.path('.bough/x'), 'utf8')).toBe('BOUGH-CANARY\n');
  });

  it('withholds the output when a protected file appears during the command, and hides it next time', async () => {
    const made = await run(`sh -c 'printf MIDCOMMAND-CANARY > .env.local; cat .env.local; cat .env.local >&2'`);
    expect(JSON.stringify(made)).not.toMatch(/MIDCOMMAND-CANARY/);
    expect(made.note).toMatch(/withheld/);
    const next = await run('cat .env.local');
    expect(next.return_code).not.toBe(0);
    expect(JSON.stringify(next)).not.toMatch(/MIDCOMMAND-CANARY/);
  });

  it('keeps .git/hooks and .git/config read-only', async () => {
    const hook = await run(`sh -c 'echo "#!/bin/sh" > .git/hooks/pre-commit'`);
    expect(hook.return_code).not.toBe(0);
    expect(existsSync(ws.path('.git/hooks/pre-commit'))).toBe(false);
    const config = await run('git config core.hooksPath /tmp/evil');
    expect(config.return_code).not.toBe(0);
    expect(readFileSync(ws.path('.git/config'), 'utf8')).not.toMatch(/hooksPath/);
  });

  it('refuses a program that lives in a hidden directory with a typed failure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bough-hidden-bin-'));
    try {
      const program = join(dir, 'tool');
      writeFileSync(program, '#!/bin/sh\necho ran\n', { mode: 0o755 });
      const result = await handleBash({ command: program }, sandboxed());
      expect(result).toMatchObject({ success: false, error_code: 'sandbox_hidden_program' });
      const allowed = await handleBash({ command: program }, sandboxed({ sandboxReadOnlyPaths: [dir] }));
      expect(allowed).toMatchObject({ sandboxed: true, stdout: 'ran\n' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs background jobs sandboxed and leaves nothing behind after kill and dispose', async () => {
    const set = createBashTools({ workspaceRoot: ws.root, sandbox: 'required' });
    const call = { signal: new AbortController().signal, callId: 't' };
    try {
      const job = (await set.bash.handler(
        { command: `sh -c 'setsid sleep ${marker} & echo up; cat .env; sleep ${marker}'`, background: true },
        call,
      )) as BashJobStarted;
      expect(job).toMatchObject({ success: true, sandboxed: true });
      const out = await eventually(async () => {
        const read = (await set.jobs.handler({ action: 'output', job_id: job.job_id }, call)) as { stdout: string };
        return read.stdout.includes('up') ? read : undefined;
      });
      expect(JSON.stringify(out)).not.toMatch(/CANARY/);
      await eventually(() => (processesWith(marker).length >= 2 ? true : undefined));
      const killed = await set.jobs.handler({ action: 'kill', job_id: job.job_id }, call);
      expect(killed).toMatchObject({ status: 'killed', sandboxed: true });
      expect(processesWith(marker)).toEqual([]);
      await set.bash.handler({ command: `sleep ${marker}`, background: true }, call);
      await eventually(() => (processesWith(marker).length > 0 ? true : undefined));
    } finally {
      await set.dispose();
    }
    expect(processesWith(marker)).toEqual([]);
  });
});

describe('sandbox modes', () => {
  it('says on every result whether it ran sandboxed', async () => {
    const off = await handleBash({ command: 'true' }, { workspaceRoot: ws.root });
    expect(off).toMatchObject({ sandboxed: false });
  });
});
