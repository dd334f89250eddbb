import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNatsServer } from '@bough/test-utils';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { largest, megabytes, treeBytes } from './install-size.js';
import { must as mustIn } from './must.js';
import { type PublicPackage, publicPackages, usageExample } from './packages.js';
import { limited, type RunResult } from './run.js';
import { typecheck } from './typecheck.js';

// Each public package as a user meets it: a fresh project, `npm install <name>` from the local registry, the
// README's usage example type-checked (node16 and bundler) and run with node.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const context = inject('packaging');
/** Public packages whose README example talks to a NATS broker: each gets its own nats-server for the run. */
const NEEDS_BROKER = ['@bough/messenger-nats'];
/** `BOUGH_PACKAGING_ONLY=a,b` tries only those packages (everything is still published; for working on one). */
const only = process.env.BOUGH_PACKAGING_ONLY?.split(',').filter(Boolean);
const packages = publicPackages(repoRoot).filter((pkg) => !only || only.includes(pkg.name));
/** The packages the issue names; each must exist and be tried. */
const REQUIRED = ['core', 'reader', 'editor', 'bash', 'search', 'check', 'nav', 'ast-search', 'context', 'messenger']
  .concat(['worktree', 'policy', 'coding', 'mcp', 'ai-sdk'])
  .map((name) => `@bough/${name}`)
  .concat(['bough']);
/**
 * Install-size goal of the single-tool packages, in bytes of node_modules. 15.5 MB: about 14.1 MB of it is zod (6.1,
 * now a peer that a project's own zod satisfies), ripgrep (5.7) and @types/node (2.3); the half-megabyte over the
 * earlier 15 MB is our own code, mostly the OS sandbox's git guard in @bough/process that every tool package brings.
 */
const SMALL_LIMIT_BYTES = 15_500_000;
const SMALL_PACKAGES = ['@bough/editor', '@bough/reader', '@bough/search', '@bough/bash', '@bough/ai-sdk'];
/**
 * Optional peers a package's README example uses: installed after the package's size is taken, as a user who follows
 * the README would (the size is what serving alone costs).
 */
const EXAMPLE_PEERS: Readonly<Record<string, readonly string[]>> = {
  '@bough/mcp': ['@modelcontextprotocol/client@^2.4.0'],
};
const MINUTE = 60_000;

/** npm installs at a time: npm mostly waits on the registry and the disk. */
const installing = limited<RunResult>(3);
const tries = new Map<string, Promise<void>>();
const sizes = new Map<string, { bytes: number; top: [string, number][] }>();

function must(step: string, command: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}) {
  return mustIn(context, step, command, args, cwd, extraEnv);
}

async function tryPackage(pkg: PublicPackage): Promise<void> {
  const project = join(context.tmp, 'try', pkg.name.replace('/', '__'));
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'try-it', private: true, type: 'module' }));
  const install = ['install', pkg.name, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
  await installing(() => must(`npm install ${pkg.name}`, 'npm', install, project));
  const nodeModules = join(project, 'node_modules');
  sizes.set(pkg.name, { bytes: treeBytes(nodeModules), top: largest(nodeModules, 3) });
  // check and nav share the compiler ts-morph bundles: a tree that has it carries no second one from `typescript`.
  if (existsSync(join(nodeModules, '@ts-morph', 'common')))
    expect(existsSync(join(nodeModules, 'typescript')), `${pkg.name} installs typescript beside ts-morph's`).toBe(
      false,
    );
  const peers = EXAMPLE_PEERS[pkg.name];
  if (peers) {
    const add = ['install', ...peers, ...install.slice(2)];
    await installing(() => must(`npm install ${peers.join(' ')}`, 'npm', add, project));
  }
  const example = usageExample(readFileSync(join(pkg.dir, 'README.md'), 'utf8'));
  if (!example) throw new Error(`${pkg.name}: README has no \`\`\`ts block under ## Usage`);
  writeFileSync(join(project, 'example.ts'), example);
  for (const resolution of ['bundler', 'node16'] as const) {
    const errors = typecheck(project, 'example.ts', resolution);
    if (errors.length > 0) throw new Error(`${pkg.name}: README example, tsc (${resolution}):\n${errors.join('')}`);
  }
  await runExample(pkg, project);
  if (pkg.name === '@bough/reader') await pdfWithoutUnpdf(project);
  if (pkg.name === '@bough/ast-search') await rustWithoutGrammar(project);
  if (pkg.bin) {
    const version = await must('npx bough --version', 'npx', ['--no', '--', 'bough', '--version'], project);
    expect(version.stdout.trim()).toBe(pkg.version);
    const tools = await must('bough tools', join(nodeModules, '.bin', 'bough'), ['tools'], project);
    expect(tools.stdout).toContain('reader');
  }
}

/** Runs the emitted README example; a package that needs a broker gets a fresh nats-server in `NATS_URL`. */
async function runExample(pkg: PublicPackage, project: string): Promise<void> {
  const step = `${pkg.name}: node example.js (the README example)`;
  if (!NEEDS_BROKER.includes(pkg.name)) {
    await must(step, process.execPath, ['out/example.js'], project);
    return;
  }
  const broker = await startNatsServer();
  try {
    const result = await must(step, process.execPath, ['out/example.js'], project, { NATS_URL: broker.url });
    expect(result.stdout).toContain('completed');
  } finally {
    await broker.close();
  }
}

/** The reader alone has no PDF converter (an optional peer): opening a PDF says what to install. */
async function pdfWithoutUnpdf(project: string): Promise<void> {
  const script = `import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { handleReader } from '@bough/reader';
writeFileSync('a.pdf', '%PDF-1.4\\n%%EOF\\n');
const result = await handleReader({ action: 'open', path: 'a.pdf' }, { workspaceRoot: process.cwd() });
let unpdf = 'not installed';
try {
  unpdf = createRequire(import.meta.resolve('@bough/reader')).resolve('unpdf');
} catch {}
console.log(JSON.stringify({ ...result, unpdf }));
`;
  writeFileSync(join(project, 'open-pdf.mjs'), script);
  const result = await must('@bough/reader: open a PDF without unpdf', process.execPath, ['open-pdf.mjs'], project);
  const response = JSON.parse(result.stdout) as {
    success: boolean;
    error_code?: string;
    error?: string;
    unpdf: string;
  };
  expect(response.unpdf, 'unpdf is reachable from the reader installed alone').toBe('not installed');
  expect(response.success).toBe(false);
  expect(response.error_code).toBe('conversion_failed');
  expect(response.error).toContain('npm install unpdf');
}

/** ast-search alone has the Python grammar but not Rust's (an optional peer): a Rust search says what to install. */
async function rustWithoutGrammar(project: string): Promise<void> {
  const script = `import { writeFileSync } from 'node:fs';
import { handleAstSearch } from '@bough/ast-search';
writeFileSync('lib.rs', 'fn main() {}\\n');
const rust = await handleAstSearch({ pattern: 'fn main() {}', lang: 'rust' }, { workspaceRoot: process.cwd() });
writeFileSync('app.py', 'print(1)\\n');
const python = await handleAstSearch({ pattern: 'print($A)', lang: 'python' }, { workspaceRoot: process.cwd() });
console.log(JSON.stringify({ rust, python }));
`;
  writeFileSync(join(project, 'rust-search.mjs'), script);
  const result = await must(
    '@bough/ast-search: Rust without its grammar',
    process.execPath,
    ['rust-search.mjs'],
    project,
  );
  const { rust, python } = JSON.parse(result.stdout) as {
    rust: { success: boolean; error_code?: string; error?: string };
    python: { success: boolean; total?: number };
  };
  expect(rust.success).toBe(false);
  expect(rust.error_code).toBe('language_unavailable');
  expect(rust.error).toContain('npm install @ast-grep/lang-rust');
  expect(python).toMatchObject({ success: true, total: 1 });
}

beforeAll(() => {
  // The biggest installs first: they fill the shared npm cache the smaller ones then mostly hit.
  const first = ['bough', '@bough/coding'];
  const rank = (pkg: PublicPackage) => (first.includes(pkg.name) ? first.indexOf(pkg.name) : first.length);
  const ordered = [...packages].sort((a, b) => rank(a) - rank(b));
  for (const pkg of ordered) {
    const attempt = tryPackage(pkg);
    attempt.catch(() => undefined);
    tries.set(pkg.name, attempt);
  }
});

afterAll(async () => {
  await Promise.allSettled(tries.values());
  console.log(`packaging: installs done at ${new Date().toISOString()}`);
  if (sizes.size === 0) return;
  const rows = [...sizes]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, { bytes, top }]) => {
      const biggest = top.map(([dep, size]) => `${dep} ${megabytes(size)}`).join(', ');
      return `| \`${name}\` | ${megabytes(bytes)} | ${biggest} |`;
    });
  const table = ['| package | MB | largest (MB) |', '|---|---:|---|', ...rows].join('\n');
  console.log(`Install sizes (node_modules after \`npm install <package>\` alone, 1 MB = 10^6 bytes):\n${table}`);
  if (process.env.BOUGH_INSTALL_SIZES) writeFileSync(process.env.BOUGH_INSTALL_SIZES, `${table}\n`);
}, 10 * MINUTE);

describe('the public packages', () => {
  it.skipIf(only)('include every package the issue names', () => {
    expect(packages.map((pkg) => pkg.name)).toEqual(expect.arrayContaining(REQUIRED));
  });
});

describe('each public package installed alone by name from the local registry', () => {
  // BOUGH_PACKAGING_ONLY=zod selects no package here: one skipped test keeps the suite from failing as empty.
  it.skipIf(packages.length > 0)('no package selected', () => undefined);
  it.each(packages.map((pkg) => [pkg.name] as const))(
    '%s: installs, its README example type-checks (bundler, node16) and runs',
    async (name) => {
      await tries.get(name);
      expect(sizes.get(name)?.bytes).toBeGreaterThan(0);
      if (SMALL_PACKAGES.includes(name)) expect(sizes.get(name)?.bytes).toBeLessThanOrEqual(SMALL_LIMIT_BYTES);
    },
    20 * MINUTE,
  );
});
