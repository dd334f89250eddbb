// Shared set-up of the checkpoint tests (not shipped: excluded from the build like every test file).
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handleBash } from '@bough/bash';
import { TEST_BASE_ENV } from '@bough/test-utils';
import { expect } from 'vitest';

/** Runs one command through the real bash handler and insists it ran and exited 0. */
export async function bash(root: string, command: string): Promise<void> {
  const out = await handleBash({ command }, { workspaceRoot: root, baseEnv: TEST_BASE_ENV });
  expect(out, command).toMatchObject({ success: true, return_code: 0 });
}

/** Every file under `dir` (outside `.git`) with its mode and bytes, so a restore can be compared exactly. */
export function files(dir: string, skip: readonly string[] = ['.git'], rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const path = rel ? `${rel}/${name}` : name;
    if (skip.includes(path)) continue;
    const st = lstatSync(join(dir, path));
    if (st.isDirectory()) out.push(`${path}/`, ...files(dir, skip, path));
    else out.push(`${path} ${(st.mode & 0o777).toString(8)} ${readFileSync(join(dir, path)).toString('base64')}`);
  }
  return out;
}

/** The git subcommands run while `work` runs (sorted), through a `git` placed first on PATH that notes each one. */
export async function gitRuns(base: string, work: () => Promise<unknown>): Promise<string[]> {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const log = join(base, 'git.log');
  writeFileSync(join(base, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`, {
    mode: 0o755,
  });
  const path = process.env.PATH;
  process.env.PATH = `${base}:${path}`;
  try {
    await work();
  } finally {
    process.env.PATH = path;
  }
  const lines = readLog(log);
  rmSync(log, { force: true });
  // The subcommand is the first word after the global options every store step starts with.
  return lines.map((line) => line.replace(/^(--no-optional-locks |-c \S+ )*/u, '').split(' ')[0]!).sort();
}

function readLog(log: string): string[] {
  try {
    return readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return []; // no git step ran at all
  }
}
