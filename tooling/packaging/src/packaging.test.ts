import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { megabytes, treeBytes } from './install-size.js';
import { type PublicPackage, publicPackages, usageExample } from './packages.js';
import { type LocalRegistry, startRegistry } from './registry.js';
import { limited, type RunResult, run } from './run.js';

// The packaging test: every public package as a user meets it. Packed with `pnpm pack`, published to a local
// verdaccio, installed by name into a fresh project, its README example type-checked (node16 and bundler) and run.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const packages = publicPackages(repoRoot);
const require = createRequire(import.meta.url);
const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
const attw = join(dirname(require.resolve('@arethetypeswrong/cli/package.json')), 'dist', 'index.js');
/** The packages the issue names; each must exist and be tried (any other public package is tried too). */
const REQUIRED = ['core', 'reader', 'editor', 'bash', 'search', 'check', 'nav', 'ast-search', 'context', 'messenger']
  .map((name) => `@bough/${name}`)
  .concat(['@bough/coding', '@bough/mcp', '@bough/ai-sdk', 'bough']);
/** Install-size goal of the single-tool packages, in bytes of node_modules. */
const SMALL_PACKAGES = ['@bough/editor', '@bough/reader', '@bough/search', '@bough/bash', '@bough/ai-sdk'];
const SMALL_LIMIT_BYTES = 15_000_000;
const MINUTE = 60_000;

let tmp: string;
/** One install-and-try per package, started as soon as everything is published (they overlap the lint tests). */
const tries = new Map<string, Promise<void>>();
let registry: LocalRegistry | undefined;
const tarballs = new Map<string, string>();
const sizes = new Map<string, number>();
/** Installs and `tsc` runs at a time: 2 cores, and npm is mostly waiting on the registry. */
const slot = limited<unknown>(2);

function npmEnv(): NodeJS.ProcessEnv {
  // pnpm's and the user's npm settings are left out (only our user config counts, so nothing points installs
  // elsewhere); npm's own cache is kept: tarballs are looked up by integrity, so third-party ones are not fetched again.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)));
  return { ...env, npm_config_userconfig: registry?.npmrc ?? '', npm_config_update_notifier: 'false' };
}

function explain(step: string, result: RunResult): string {
  return `${step} exited ${result.code}\n--- stdout\n${result.stdout.slice(-3000)}\n--- stderr\n${result.stderr.slice(-3000)}`;
}

async function must(step: string, command: string, args: string[], cwd: string): Promise<RunResult> {
  const result = await run(command, args, { cwd, env: npmEnv(), timeoutMs: 5 * MINUTE });
  if (result.code !== 0) throw new Error(explain(step, result));
  return result;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'bough-packaging-'));
  registry = await startRegistry(join(tmp, 'registry'));
  const packDir = join(tmp, 'tarballs');
  mkdirSync(packDir);
  const pack = limited<void>(3);
  await Promise.all(
    packages.map((pkg) =>
      pack(async () => {
        const result = await must(`pnpm pack ${pkg.name}`, 'pnpm', ['pack', '--pack-destination', packDir], pkg.dir);
        const file = result.stdout.trim().split('\n').pop()?.trim() ?? '';
        tarballs.set(pkg.name, file.startsWith('/') ? file : join(packDir, basename(file)));
      }),
    ),
  );
  const publish = limited<void>(3);
  await Promise.all(
    packages.map((pkg) =>
      publish(async () => {
        await must(
          `npm publish ${pkg.name}`,
          'npm',
          ['publish', tarballs.get(pkg.name) as string, '--access', 'public'],
          tmp,
        );
      }),
    ),
  );
  for (const pkg of packages) {
    const attempt = tryPackage(pkg);
    attempt.catch(() => undefined);
    tries.set(pkg.name, attempt);
  }
}, 10 * MINUTE);

afterAll(async () => {
  await Promise.allSettled(tries.values());
  registry?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  if (sizes.size === 0) return;
  const rows = [...sizes].map(([name, bytes]) => `| \`${name}\` | ${megabytes(bytes)} MB |`);
  const table = ['| package | node_modules after `npm install <package>` |', '|---|---|', ...rows].join('\n');
  console.log(`Install sizes (apparent bytes of node_modules, 1 MB = 10^6 bytes):\n${table}`);
  if (process.env.BOUGH_INSTALL_SIZES) writeFileSync(process.env.BOUGH_INSTALL_SIZES, `${table}\n`);
}, 10 * MINUTE);

describe('the public packages', () => {
  it('include every package the README promises', () => {
    expect(packages.map((pkg) => pkg.name)).toEqual(expect.arrayContaining(REQUIRED));
  });

  it.each(packages.map((pkg) => [pkg.name, pkg] as const))('%s has a usage example in its README', (_, pkg) => {
    expect(usageExample(readFileSync(join(pkg.dir, 'README.md'), 'utf8'))).toBeTruthy();
  });
});

describe('publint --strict and attw on each packed tarball', () => {
  it.each(packages.map((pkg) => [pkg.name] as const))(
    '%s',
    async (name) => {
      const tarball = readFileSync(tarballs.get(name) as string);
      const { messages, pkg } = await publint({
        pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
        strict: true,
      });
      const problems = messages.filter((message) => message.type !== 'suggestion');
      expect(problems.map((message) => formatMessage(message, pkg))).toEqual([]);
      // An ESM-only package: its CommonJS `require` is Node's require(esm), which attw's esm-only profile leaves out.
      const result = (await slot(() =>
        run(process.execPath, [attw, tarballs.get(name) as string, '--profile', 'esm-only', '--format', 'ascii'], {
          cwd: tmp,
          timeoutMs: 3 * MINUTE,
        }),
      )) as RunResult;
      expect(result.code, explain('attw', result)).toBe(0);
    },
    10 * MINUTE,
  );
});

const NODE16 = { module: 'node16', moduleResolution: 'node16', outDir: 'out' };
const BUNDLER = { module: 'esnext', moduleResolution: 'bundler', noEmit: true };

async function tryPackage(pkg: PublicPackage): Promise<void> {
  const project = join(tmp, 'try', pkg.name.replace('/', '__'));
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'try-it', private: true, type: 'module' }));
  await slot(() =>
    must(
      `npm install ${pkg.name}`,
      'npm',
      ['install', pkg.name, '--no-audit', '--no-fund', '--loglevel=error'],
      project,
    ),
  );
  sizes.set(pkg.name, treeBytes(join(project, 'node_modules')));
  const example = usageExample(readFileSync(join(pkg.dir, 'README.md'), 'utf8'));
  if (!example) throw new Error(`${pkg.name}: README has no \`\`\`ts block under ## Usage`);
  writeFileSync(join(project, 'example.ts'), example);
  for (const [name, options] of [
    ['node16', NODE16],
    ['bundler', BUNDLER],
  ] as const) {
    const compilerOptions = { target: 'es2022', strict: true, skipLibCheck: false, ...options };
    writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files: ['example.ts'] }));
    await slot(() => must(`tsc (${name})`, process.execPath, [tsc, '-p', `tsconfig.${name}.json`], project));
  }
  await slot(() => must('node example.js', process.execPath, ['out/example.js'], project));
  if (pkg.bin) {
    const version = await must('npx bough --version', 'npx', ['--no', '--', 'bough', '--version'], project);
    expect(version.stdout.trim()).toBe(pkg.version);
    const tools = await must('bough tools', join(project, 'node_modules', '.bin', 'bough'), ['tools'], project);
    expect(tools.stdout).toContain('reader');
  }
}

describe('each public package installed alone by name from the local registry', () => {
  it.each(packages.map((pkg) => [pkg.name] as const))(
    '%s: installs, its README example type-checks (node16, bundler) and runs',
    async (name) => {
      await tries.get(name);
      if (SMALL_PACKAGES.includes(name)) expect(sizes.get(name)).toBeLessThanOrEqual(SMALL_LIMIT_BYTES);
    },
    20 * MINUTE,
  );
});
