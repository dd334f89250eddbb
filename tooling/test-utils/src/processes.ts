import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { staleBuilds } from './internal/build-freshness.js';

/** The built `bough` CLI; process-level tests need `pnpm exec turbo run build --filter=bough` first. */
export const CLI_BIN = fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url));

const PACKAGES_DIR = fileURLToPath(new URL('../../../packages', import.meta.url));

/** Fails with a clear message when the CLI has not been built, or a package's build is older than its source. */
export function requireCliBuild(): void {
  if (!existsSync(CLI_BIN)) {
    throw new Error(`${CLI_BIN} is missing: run \`pnpm exec turbo run build\` before these tests.`);
  }
  const stale = staleBuilds(PACKAGES_DIR);
  if (stale.length > 0) {
    throw new Error(
      `The build of ${stale.join(', ')} is older than its source, so the CLI would run old code: run \`pnpm exec turbo run build\` before these tests.`,
    );
  }
}

/** A script for the bash tool: it writes its pid to `pid.txt`, then waits until it is killed. */
export const SLEEPER = [
  "const fs = require('node:fs');",
  "fs.writeFileSync('pid.txt.tmp', String(process.pid));",
  "fs.renameSync('pid.txt.tmp', 'pid.txt');",
  'setInterval(() => {}, 1000);',
  '',
].join('\n');

/** The bash command that runs {@link SLEEPER} from `sleeper.cjs` in the workspace. */
export const SLEEPER_COMMAND = `${JSON.stringify(process.execPath)} sleeper.cjs`;

/** Waits (no deadline of its own: the test timeout bounds it) until `path` exists, then returns its text. */
export async function waitForFile(path: string, child?: ChildProcess): Promise<string> {
  while (!existsSync(path)) {
    if (child && child.exitCode !== null) throw new Error(`the CLI exited (${child.exitCode}) before ${path} appeared`);
    await sleep(20);
  }
  return readFileSync(path, 'utf8');
}

/** True while `pid` is a running process (a zombie waiting to be reaped counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Spawns the built CLI with piped stdio. */
export function spawnCli(args: readonly string[], cwd?: string): ChildProcess {
  return spawn(process.execPath, [CLI_BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
}

/** Resolves with the exit code (or 128 + signal number) of a child once it has exited. */
export function exited(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code, signal) => resolve(code ?? (signal === 'SIGKILL' ? 137 : 128)));
  });
}

/** Collects everything a stream emits as text. */
export function collect(stream: NodeJS.ReadableStream | null): () => string {
  let text = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    text += chunk;
  });
  return () => text;
}

/** Pids of the processes whose working directory is `dir` (a language server and what it runs sit in the workspace). */
export function processesIn(dir: string): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      return readlinkSync(`/proc/${entry}/cwd`) === dir ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}
