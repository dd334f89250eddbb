import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { npmEnv, type PackagingContext } from './context.js';
import { publicPackages, unreleasedPackages } from './packages.js';
import { type LocalRegistry, startRegistry } from './registry.js';
import { limited, type RunResult, run } from './run.js';

// Once per run, in vitest's main process: a temp root, verdaccio in it, every public package packed and published.
// Whatever happens (success, failure, Ctrl-C, SIGTERM) the registry is killed and the temp root removed.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const MINUTE = 60_000;

let tmp: string | undefined;
let registry: LocalRegistry | undefined;
let started = 0;

function cleanUp(): void {
  registry?.stop();
  registry = undefined;
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
}

function onSignal(signal: NodeJS.Signals): void {
  cleanUp();
  process.kill(process.pid, signal);
}

function explain(step: string, result: RunResult): string {
  return `${step} exited ${result.code}\n--- stdout\n${result.stdout.slice(-3000)}\n--- stderr\n${result.stderr.slice(-3000)}`;
}

async function must(step: string, command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const result = await run(command, args, { cwd, env, timeoutMs: 5 * MINUTE });
  if (result.code !== 0) throw new Error(explain(step, result));
  return result;
}

/** Starts the registry and publishes every public package; the returned function stops and removes everything. */
export default async function setup(project: TestProject): Promise<() => void> {
  started = Date.now();
  process.once('exit', cleanUp);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const packages = publicPackages(repoRoot);
  const unreleased = unreleasedPackages(packages);
  if (unreleased.length > 0) {
    const names = unreleased.map((pkg) => `${pkg.name}@${pkg.version}`).join(', ');
    throw new Error(`unreleased version (give it the siblings' release line with a changelog entry): ${names}`);
  }
  const unbuilt = packages.filter((pkg) => !existsSync(join(pkg.dir, 'dist')));
  if (unbuilt.length > 0) {
    throw new Error(`not built (run \`pnpm build\` first): ${unbuilt.map((pkg) => pkg.name).join(', ')}`);
  }
  try {
    tmp = mkdtempSync(join(tmpdir(), 'bough-packaging-'));
    registry = await startRegistry(join(tmp, 'registry'));
    const context: PackagingContext = {
      tmp,
      npmrc: registry.npmrc,
      npmCache: join(tmp, 'npm-cache'),
      tarballs: {},
    };
    const env = npmEnv(context);
    const packDir = join(tmp, 'tarballs');
    mkdirSync(packDir);
    const tarballs: Record<string, string> = {};
    const step = limited<void>(3);
    // allSettled: on a failure the other packs still finish before the temp root goes (a late one would recreate it).
    const settled = await Promise.allSettled(
      packages.map((pkg) =>
        step(async () => {
          const packed = await must(`pnpm pack ${pkg.name}`, 'pnpm', ['pack', '--pack-destination', packDir], pkg.dir, {
            ...process.env,
          });
          const file = packed.stdout.trim().split('\n').pop()?.trim() ?? '';
          const tarball = file.startsWith('/') ? file : join(packDir, basename(file));
          tarballs[pkg.name] = tarball;
          await must(`npm publish ${pkg.name}`, 'npm', ['publish', tarball, '--access', 'public'], packDir, env);
        }),
      ),
    );
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    project.provide('packaging', { ...context, tarballs });
    console.log(`packaging: ${packages.length} packages published to ${registry.url} in ${Date.now() - started} ms`);
  } catch (error) {
    cleanUp();
    throw error;
  }
  return () => {
    cleanUp();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    console.log(
      `packaging: whole run ${((Date.now() - started) / 1000).toFixed(0)} s (registry stopped, temp removed)`,
    );
  };
}
